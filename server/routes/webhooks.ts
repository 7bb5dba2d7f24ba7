/** POST /api/v1/external/{integration_name}: incoming webhooks, one integration per registry entry. */
import { authenticateWebhook } from '../auth';
import { ApiFailure } from '../errors';
import { FormBody, RawBody, route } from '../http';
import { Payload, parseJsonPayload } from '../webhooks/payload';
import { postWebhookMessage, resolveConfig } from '../webhooks/post';
import { INTEGRATIONS } from '../webhooks/registry';

function bodyText(body: unknown): string {
  return body instanceof RawBody || body instanceof FormBody ? body.text : '';
}

export const webhookEndpoints = [
  route({
    // The webhook's own authentication (api_key parameter), not the REST API's Basic auth.
    endpoint: 'POST /external/{integration_name}',
    handle({ ctx, params, raw, http }) {
      const integration = INTEGRATIONS.get(params.integration_name);
      if (!integration) throw new ApiFailure(404, 'NOT_FOUND', 'Endpoint not found');
      const bot = authenticateWebhook(ctx.db, ctx.realmId, {
        apiKey: params.api_key,
        authorization: http.headers.authorization,
        allowBasic: integration.auth === 'basic',
      });
      const config = resolveConfig(integration, raw);
      const rawBody = bodyText(http.body);
      const payload = integration.body === 'text' ? new Payload(rawBody) : parseJsonPayload(rawBody);
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(http.headers)) {
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const message = integration.handle({ payload, rawBody, headers, config });
      if (message !== null) {
        postWebhookMessage(ctx, bot, integration, { stream: params.stream, topic: params.topic }, message);
      }
      return undefined;
    },
  }),
];
