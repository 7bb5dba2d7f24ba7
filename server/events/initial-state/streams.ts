/**
 * register's state for streams and subscriptions (fetch_event_types `stream`, `subscription`)
 * and the organization's default streams (`default_streams`). The organization's streams with
 * their figures and their Stream objects' JSON are kept between registers (./shared.ts) and
 * brought up to date stream by stream: `streams` and `never_subscribed` are most of them in a
 * large organization.
 */
import type { Db } from '../../db';
import { getStream, listDefaultStreams, subscriptionsOf } from '../../db/streams';
import {
  formatPlaces,
  formatStream,
  placeStreams,
  realmStreams,
  type StreamWithFigures,
  streamFigures,
  trafficWindow,
  visibleStreams,
} from '../../formats/streams';
import { isGuest } from '../../permissions';
import type { AreaRequest, State } from './index';
import { keptObject, RawJson, RowChanges } from './shared';

interface KeptStream extends StreamWithFigures {
  /** Its Stream object (formatStream) as JSON. */
  json: string;
}

const keep = (entry: StreamWithFigures): KeptStream => ({
  ...entry,
  json: JSON.stringify(formatStream(entry.stream, entry.figures)),
});

/** Reads only the changed streams again when writes name at most this many. */
const MAX_CHANGED_STREAMS = 100;

/**
 * The organization's live streams by id (realmStreams), each read again when its row or its
 * messages change, and all of them each day (the weekly traffic counts whole days).
 */
class Streams {
  private readonly changes: RowChanges;
  private day = Number.NaN;
  private byId = new Map<number, KeptStream>();
  private ordered: KeptStream[] | null = null;

  constructor(
    private readonly db: Db,
    private readonly realmId: number,
  ) {
    this.changes = new RowChanges(db, ['streams', 'message_streams'], MAX_CHANGED_STREAMS);
  }

  current(): readonly KeptStream[] {
    let changed = this.changes.take();
    const day = trafficWindow().to;
    if (day !== this.day) {
      this.day = day;
      changed = null;
    }
    if (changed === null) {
      this.byId = new Map(realmStreams(this.db, this.realmId).map((entry) => [entry.stream.id, keep(entry)]));
      this.ordered = null;
    } else {
      for (const id of changed) {
        const stream = getStream(this.db, id);
        if (stream && stream.realm_id === this.realmId && stream.deactivated === 0) {
          this.byId.set(id, keep({ stream, figures: streamFigures(this.db, stream) }));
        } else {
          this.byId.delete(id);
        }
        this.ordered = null;
      }
    }
    if (this.ordered === null)
      this.ordered = [...this.byId.values()].sort((a, b) => a.stream.id - b.stream.id);
    return this.ordered;
  }

  /** The default streams' objects (formats/streams.ts defaultStreamObjects), from the kept JSON. */
  defaults(streams: readonly KeptStream[]): RawJson {
    const byId = new Map(streams.map((s) => [s.stream.id, s]));
    const json = listDefaultStreams(this.db, this.realmId).map(
      (stream) =>
        byId.get(stream.id)?.json ?? JSON.stringify(formatStream(stream, streamFigures(this.db, stream))),
    );
    return new RawJson(`[${json.join(',')}]`);
  }
}

const keptStreams = (db: Db, realmId: number) =>
  keptObject(db, `streams:${realmId}`, () => new Streams(db, realmId));

const jsonList = (streams: readonly KeptStream[]) => new RawJson(`[${streams.map((s) => s.json).join(',')}]`);

export function streamsState({ ctx, user, want, options }: AreaRequest): State {
  const state: State = {};
  const wantStreams = want('stream');
  const wantSubscriptions = want('subscription');
  // Guests are not told the organization's default streams, as in the family.
  const wantDefaults = want('default_streams') && !isGuest(user);
  const kept = keptStreams(ctx.db, user.realm_id);
  const streams = wantStreams || wantSubscriptions || wantDefaults ? kept.current() : [];
  const subscriptions = wantStreams || wantSubscriptions ? subscriptionsOf(ctx.db, user.id) : [];
  if (wantStreams) state.streams = jsonList(visibleStreams(user, streams, subscriptions));
  if (want('default_streams')) state.realm_default_streams = wantDefaults ? kept.defaults(streams) : [];
  if (wantSubscriptions) {
    const places = placeStreams(user, streams, subscriptions);
    const notificationSettingsNull = options.clientCapabilities.notification_settings_null === true;
    const { includeSubscribers } = options;
    // Without subscribers, a never-subscribed stream's object is its Stream object as kept.
    const built = includeSubscribers ? places : { ...places, neverSubscribed: [] };
    Object.assign(state, formatPlaces(ctx.db, user, built, includeSubscribers, notificationSettingsNull));
    if (!includeSubscribers) state.never_subscribed = jsonList(places.neverSubscribed);
  }
  return state;
}
