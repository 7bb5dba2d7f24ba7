/** Every endpoint of the service, by area. */
import type { Endpoint } from '../http';
import { authEndpoints } from './auth';
import { eventEndpoints } from './events';
import { registerEndpoints } from './register';
import { settingsEndpoints } from './settings';
import { userEndpoints } from './users';

export { avatarEndpoints } from './users';

export const apiEndpoints: readonly Endpoint[] = [
  ...authEndpoints,
  ...userEndpoints,
  ...registerEndpoints,
  ...eventEndpoints,
  ...settingsEndpoints,
];
