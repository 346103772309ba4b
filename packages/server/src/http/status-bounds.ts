/**
 * Bounds on the size of a failure Status: an invalid 3 MiB object can carry a hundred thousand bad fields, each
 * echoing its value, and a Status that lists them all runs to megabytes. The message is cut at
 * {@link maxStatusMessageChars}, the causes at {@link maxStatusCauses} with each text cut at
 * {@link maxCauseTextChars}; a cut text ends in `... (truncated)` so a reader sees that more was there.
 */
import type { Status, StatusCause } from '@svc-apiserver/api';

/** The longest message a Status carries. */
export const maxStatusMessageChars = 16 * 1024;
/** The most causes a Status lists. */
export const maxStatusCauses = 100;
/** The longest message or field of one cause. */
export const maxCauseTextChars = 1024;

const marker = '... (truncated)';

/** `text` cut to `max` characters (marker included), never splitting a surrogate pair. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - marker.length);
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return text.slice(0, end) + marker;
}

function boundCause(cause: StatusCause): StatusCause {
  const out: StatusCause = { ...cause };
  if (out.message !== undefined) out.message = truncateText(out.message, maxCauseTextChars);
  if (out.field !== undefined) out.field = truncateText(out.field, maxCauseTextChars);
  if (out.reason !== undefined) out.reason = truncateText(out.reason, maxCauseTextChars);
  return out;
}

function causeFits(cause: StatusCause): boolean {
  return (cause.message ?? '').length <= maxCauseTextChars && (cause.field ?? '').length <= maxCauseTextChars
    && (cause.reason ?? '').length <= maxCauseTextChars;
}

/** The Status within the bounds; the same object when it already is. */
export function boundStatus(status: Status): Status {
  const causes = status.details?.causes;
  const messageFits = status.message === undefined || status.message.length <= maxStatusMessageChars;
  const causesFit = causes === undefined || (causes.length <= maxStatusCauses && causes.every(causeFits));
  if (messageFits && causesFit) return status;
  const out: Status = { ...status };
  if (!messageFits) out.message = truncateText(status.message!, maxStatusMessageChars);
  if (!causesFit && status.details !== undefined) {
    out.details = { ...status.details, causes: causes!.slice(0, maxStatusCauses).map(boundCause) };
  }
  return out;
}
