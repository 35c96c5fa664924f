import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import type { temporal as protoTypes } from '@temporalio/proto';
import { REDACTED, redactPersonal, type OperatorHistory, type OperatorTimelineEvent } from '../../domain';
import type { EncryptionCodec } from '../../infra/temporal/codec';
import { fetchHistory, isoOf, proto, type OperatorDeps } from './operator-temporal';

// A case's history for the operator: decoded through the codec, personal fields redacted unless
// the operator asked to reveal them (and said why: the audit log keeps it).

type HistoryEvent = protoTypes.api.history.v1.IHistoryEvent;

/** Every `{ payloads: [...] }` inside an event's attributes, in order. */
function payloadsIn(value: unknown, found: Payload[] = [], depth = 0): Payload[] {
  if (!value || typeof value !== 'object' || depth > 8) return found;
  if (Array.isArray((value as { payloads?: unknown }).payloads)) {
    found.push(...((value as { payloads: Payload[] }).payloads));
    return found;
  }
  for (const [key, inner] of Object.entries(value)) {
    // Search attributes, headers and memo are not case data shown here (search attributes hold no personal data).
    if (key === 'searchAttributes' || key === 'header') continue;
    payloadsIn(inner, found, depth + 1);
  }
  return found;
}

function nameOf(a: Record<string, any>): string | null {
  return (
    a.activityType?.name ??
    a.workflowType?.name ??
    a.signalName ??
    a.acceptedRequest?.input?.name ??
    a.request?.input?.name ??
    a.timerId ??
    a.markerName ??
    null
  );
}

async function timelineEvent(codec: EncryptionCodec, event: HistoryEvent, reveal: boolean): Promise<OperatorTimelineEvent> {
  const key = Object.keys(event).find((k) => k.endsWith('EventAttributes') && (event as Record<string, unknown>)[k]);
  const attributes = (key ? (event as Record<string, unknown>)[key] : {}) as Record<string, any>;
  const payloads: unknown[] = [];
  for (const payload of payloadsIn(attributes)) {
    let value: unknown;
    try {
      value = defaultPayloadConverter.fromPayload((await codec.decode([payload]))[0]!);
    } catch {
      value = '[not decodable]';
    }
    payloads.push(reveal ? value : redactPersonal(value));
  }
  const failure = attributes.failure?.message ?? null;
  return {
    eventId: Number(event.eventId ?? 0),
    at: isoOf(event.eventTime as never) ?? '',
    type: (proto.api.enums.v1.EventType[event.eventType ?? 0] ?? 'UNSPECIFIED').replace('EVENT_TYPE_', ''),
    name: nameOf(attributes),
    payloads,
    // Free text like the payloads' messages: shown only with a reason.
    failure: failure ? (reveal ? failure : REDACTED) : null,
  };
}

/** A case's history as a readable timeline: event by event, payloads decoded, personal fields redacted unless `reveal`. */
export async function caseHistory({ temporal, codec }: OperatorDeps, workflowId: string, reveal: boolean): Promise<OperatorHistory> {
  const history = await fetchHistory(temporal, workflowId);
  const events = await Promise.all((history.events ?? []).map((e) => timelineEvent(codec, e, reveal)));
  return {
    workflowId,
    redacted: !reveal,
    events,
    resetPoints: events.filter((e) => e.type === 'WORKFLOW_TASK_COMPLETED').map((e) => e.eventId),
  };
}

/**
 * Failure messages and stack traces are plain text in a history (activities' errors may quote what
 * they were given): in an encoded export they are redacted like its payloads, which the key alone opens.
 */
function redactFailures(value: unknown, depth = 0): unknown {
  if (!value || typeof value !== 'object' || depth > 32) return value;
  if (Array.isArray(value)) return value.map((v) => redactFailures(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => {
      if ((k === 'failure' || k === 'cause' || k === 'lastFailure') && v && typeof v === 'object') {
        const f = v as Record<string, unknown>;
        return [k, redactFailures({ ...f, ...(f.message ? { message: REDACTED } : {}), ...(f.stackTrace ? { stackTrace: REDACTED } : {}) }, depth + 1)];
      }
      return [k, redactFailures(v, depth + 1)];
    }),
  );
}

/** The history as Temporal gives it (payloads still encrypted: reading them needs the key), failure texts redacted, as JSON. */
export async function encodedHistory({ temporal }: OperatorDeps, workflowId: string): Promise<string> {
  return JSON.stringify(redactFailures(JSON.parse(historyToJSON(await fetchHistory(temporal, workflowId)))));
}
