/**
 * Calling the webhooks that match a request (k8s.io/apiserver/pkg/admission/plugin/webhook/mutating and
 * validating dispatchers):
 *
 * - mutating webhooks one after another, each seeing the previous ones' changes; a JSONPatch answer is applied to
 *   the object (in the webhook's version, converted back), recorded in the audit annotations
 *   `mutation.webhook.admission.<suffix>/round_<r>_index_<i>` and `patch.webhook...`, and, when it changed the
 *   object, earlier webhooks with `reinvocationPolicy: IfNeeded` are called again in a second round;
 * - validating webhooks all at once; the first refusal to arrive fails the request;
 * - a webhook that may have side effects (`sideEffects` not None or NoneOnDryRun) fails a dry run;
 * - a call that fails follows `failurePolicy` (Ignore: skipped, noted as failed open; Fail: 500 naming the
 *   webhook); a denial shows the webhook's code and message;
 * - warnings of every answer reach the client, its audit annotations are kept under `<webhook name>/<key>`;
 * - each call is timed and each rejection counted (`apiserver_admission_webhook_rejection_count`).
 */
import { badRequest, fail, type KubeObject, ok, type Result, type Status } from '@svc-apiserver/api';
import { applyJsonPatch } from '../../patch/json-patch.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { admissionInternalError } from '../admission-errors.js';
import type { WebhookRejectionErrorType, WebhookType } from '../admission-metrics.js';
import { jsonEqual, replaceContents, type Json } from '../object-access.js';
import { admitted, refused, type AdmissionAttributes, type AdmissionResult } from '../plugin.js';
import { reviewEncoder, reviewVersionFor, type ReviewEncoder, type ReviewResponse } from './admission-review.js';
import type { WebhookAccessor } from './webhook-accessor.js';
import { callWebhook, rejectionStatus, type CallFailure } from './webhook-call.js';
import type { WebhookEnvironment } from './webhook-environment.js';
import { shouldCallWebhook, type Invocation } from './webhook-matcher.js';

/** The kinds whose writes no webhook sees, so a broken webhook cannot lock its own configuration out. */
const exemptKinds = new Set(['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding']);

/** Whether the request is a write of an admission configuration (IsExemptAdmissionConfigurationResource). */
export function exemptFromWebhooks(a: AdmissionAttributes, admissionRegistrationGroup: string): boolean {
  return (a.kindGroupVersion?.group ?? a.group) === admissionRegistrationGroup && exemptKinds.has(a.kind);
}

/** The side-effect classes that allow a dry run. */
const dryRunSafe = new Set(['None', 'NoneOnDryRun']);

/** The Status of a webhook that cannot take part in a dry run (NewDryRunUnsupportedErr). */
function dryRunUnsupported(name: string): Status {
  return badRequest(`admission webhook "${name}" does not support dry run`);
}

/**
 * Why a webhook's part failed, as kube's dispatchers tell them apart: the call failed (the failure policy decides),
 * the webhook rejected the request, or the server could not use the answer.
 */
type WebhookFailure =
  | { readonly kind: 'calling'; readonly failure: CallFailure }
  | { readonly kind: 'rejection'; readonly status: Status }
  | { readonly kind: 'internal'; readonly status: Status };

/** A webhook's outcome for the dispatcher: whether it changed the object, or why it failed. */
type Outcome = Result<boolean, WebhookFailure>;

/** The object in the invocation's version (converted through the storage version for equivalent resources). */
function versioned(object: KubeObject | undefined, invocation: Invocation, back = false): KubeObject | undefined {
  if (object === undefined || invocation.equivalentOf === undefined) return object;
  const [from, to] = back ? [invocation.equivalentOf.to, invocation.equivalentOf.from] : [invocation.equivalentOf.from, invocation.equivalentOf.to];
  const stored = from.conversion === undefined ? object : from.conversion.toStorage(object);
  return to.conversion === undefined ? stored : to.conversion.fromStorage(stored);
}

/** Records a response's warnings and audit annotations (both are kept whatever the webhook decided). */
function recordResponse(a: AdmissionAttributes, w: WebhookAccessor, response: ReviewResponse): void {
  for (const text of response.warnings) a.recorder?.warn(text);
  for (const [k, v] of Object.entries(response.auditAnnotations)) a.recorder?.annotate(`${w.name}/${k}`, v, 'Metadata');
}

/** Seconds since a performance.now() reading. */
const since = (start: number): number => (performance.now() - start) / 1000;

/** Counts a rejection and times the call (ObserveWebhookRejection, ObserveWebhook). */
function observe(env: WebhookEnvironment, w: WebhookAccessor, type: WebhookType, a: AdmissionAttributes, outcome: Outcome, started: number): void {
  let errorType: WebhookRejectionErrorType | undefined;
  let code = 0;
  const failure = outcome.ok ? undefined : outcome.error;
  if (failure?.kind === 'calling' && w.failurePolicy === 'Fail') {
    errorType = 'calling_webhook_error';
    code = failure.failure.code;
  } else if (failure?.kind === 'rejection') {
    errorType = 'no_error';
    code = failure.status.code;
  } else if (failure?.kind === 'internal') {
    errorType = 'apiserver_internal_error';
  }
  if (errorType !== undefined) env.metrics.observeWebhookRejection(w.name, type, a.operation, errorType, code);
  const seconds = since(started);
  env.metrics.observeWebhook(w.name, type, a.operation, errorType !== undefined, seconds);
  // Mutating calls follow one another: each adds its time. Validating ones run together (dispatchValidating).
  if (type === 'admit' && a.recorder?.latency !== undefined) a.recorder.latency.webhookSeconds += seconds;
}

/** The matching webhooks of a request, or the Status that ends it (a namespace that cannot be found). */
async function invocationsFor(a: AdmissionAttributes, hooks: readonly WebhookAccessor[], env: WebhookEnvironment): Promise<Result<Invocation[]>> {
  const invocations: Invocation[] = [];
  for (const w of hooks) {
    const matched = await shouldCallWebhook(w, a, env.match);
    if (!matched.ok) return matched;
    if (matched.value !== undefined) invocations.push(matched.value);
  }
  return ok(invocations);
}

/** Evaluates match conditions where an evaluator is plugged in: whether to call, or the failure to decide. */
async function conditionsAllow(env: WebhookEnvironment, a: AdmissionAttributes, invocation: Invocation): Promise<Result<boolean, CallFailure>> {
  if (env.matchConditions === undefined || invocation.webhook.matchConditions.length === 0) return ok(true);
  const r = await env.matchConditions(invocation.webhook, a, invocation);
  if (r.ok) return r;
  return fail({ message: `failed calling webhook "${invocation.webhook.name}": ${r.error}`, code: 500 });
}

/** State of the mutating webhooks across the two rounds (webhookReinvokeContext). */
interface ReinvokeState {
  lastOutput: string | undefined;
  previouslyInvoked: Set<string>;
  reinvoke: Set<string>;
}

const reinvokeKey = 'MutatingAdmissionWebhook';

/** One mutating call: the answer applied to the object. */
async function callMutating(a: AdmissionAttributes, invocation: Invocation, version: string, env: WebhookEnvironment, round: number, index: number): Promise<Outcome> {
  const w = invocation.webhook;
  const suffix = env.names.group('admission');
  const object = versioned(a.object, invocation);
  let changed = false;
  const annotate = () => a.recorder?.annotate(`mutation.webhook.${suffix}/round_${round}_index_${index}`,
    JSON.stringify({ configuration: w.configurationName, webhook: w.name, mutated: changed }), 'Metadata');
  try {
    const review = reviewEncoder(a, invocation, version, env.names, object, versioned(a.oldObject, invocation)).request();
    const called = await callWebhook(w, review, env.client(w), env.resolvers, env.names);
    if (!called.ok) return fail({ kind: 'calling', failure: called.error });
    const response = called.value;
    recordResponse(a, w, response);
    if (!response.allowed) return fail({ kind: 'rejection', status: rejectionStatus(w.name, response.result) });
    if (response.patch === undefined) return ok(changed);
    let patch: unknown;
    try {
      patch = JSON.parse(Buffer.from(response.patch, 'base64').toString('utf8'));
    } catch (e) {
      return fail({ kind: 'internal', status: admissionInternalError((e as Error).message) });
    }
    if (!Array.isArray(patch)) return fail({ kind: 'internal', status: admissionInternalError('json: cannot unmarshal object into Go value of type jsonpatch.Patch') });
    if (patch.length === 0) return ok(changed);
    if (object === undefined || a.object === undefined) {
      return fail({ kind: 'internal', status: admissionInternalError(`admission webhook "${w.name}" attempted to modify the object, which is not supported for this operation`) });
    }
    if (response.patchType !== 'JSONPatch') {
      return fail({ kind: 'calling', failure: { message: `failed calling webhook "${w.name}": unsupported patch type "${response.patchType ?? ''}"`, code: 500 } });
    }
    const applied = applyJsonPatch(object, patch);
    if (!applied.ok) {
      const cause = applied.error.details?.causes?.[0]?.message ?? applied.error.message ?? 'the patch does not apply';
      return fail({ kind: 'internal', status: admissionInternalError(cause) });
    }
    const patched = applied.value as Json;
    if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) {
      return fail({ kind: 'internal', status: admissionInternalError('the patched object is not an object') });
    }
    const def: ResourceDef | undefined = env.lookup(invocation.group, invocation.version, invocation.resource);
    const typeError = def === undefined ? undefined : env.typeError(def, invocation.subresource, patched as KubeObject);
    if (typeError !== undefined) return fail({ kind: 'internal', status: admissionInternalError(typeError) });
    changed = !jsonEqual(object, patched);
    a.recorder?.annotate(`patch.webhook.${suffix}/round_${round}_index_${index}`,
      JSON.stringify({ configuration: w.configurationName, webhook: w.name, patch, patchType: 'JSONPatch' }), 'Request');
    replaceContents(a.object, versioned(patched as KubeObject, invocation, true) as Json);
    return ok(changed);
  } finally {
    annotate();
  }
}

/** Runs the mutating webhooks of a request (mutating.Dispatch). */
export async function dispatchMutating(a: AdmissionAttributes, hooks: readonly WebhookAccessor[], env: WebhookEnvironment): Promise<AdmissionResult> {
  const reinvocation = a.reinvocation;
  let state = reinvocation?.value(reinvokeKey) as ReinvokeState | undefined;
  if (state === undefined) {
    state = { lastOutput: undefined, previouslyInvoked: new Set(), reinvoke: new Set() };
    reinvocation?.setValue(reinvokeKey, state);
  }
  const isReinvoke = reinvocation?.isReinvoke === true;
  const requireReinvokingPrevious = (s: ReinvokeState) => {
    for (const uid of s.previouslyInvoked) s.reinvoke.add(uid);
    s.previouslyInvoked.clear();
  };
  // Built-in plugins changed the object in the second round: every eligible webhook is called again.
  if (isReinvoke && state.lastOutput !== JSON.stringify(a.object ?? null)) requireReinvokingPrevious(state);
  const found = await invocationsFor(a, hooks, env);
  if (!found.ok) return refused(found.error);
  const round = isReinvoke ? 1 : 0;
  try {
    for (const invocation of found.value) {
      const w = invocation.webhook;
      const index = hooks.indexOf(w);
      if (isReinvoke && !state.reinvoke.has(w.uid)) continue;
      const started = performance.now();
      const allowed = await conditionsAllow(env, a, invocation);
      let outcome: Outcome;
      if (allowed.ok && !allowed.value) continue;
      if (!allowed.ok) outcome = fail({ kind: 'calling', failure: allowed.error });
      else if (a.dryRun && !dryRunSafe.has(w.sideEffects)) outcome = fail({ kind: 'internal', status: dryRunUnsupported(w.name) });
      else {
        const version = reviewVersionFor(w.admissionReviewVersions);
        outcome = version === undefined
          ? fail({ kind: 'calling', failure: { message: `failed calling webhook "${w.name}": webhook does not accept known AdmissionReview versions`, code: 500 } })
          : await callMutating(a, invocation, version, env, round, index);
      }
      observe(env, w, 'admit', a, outcome, started);
      if (outcome.ok && outcome.value) {
        requireReinvokingPrevious(state);
        reinvocation?.requestReinvocation();
      }
      if (w.reinvocationPolicy === 'IfNeeded') state.previouslyInvoked.add(w.uid);
      if (outcome.ok) continue;
      const failure = outcome.error;
      switch (failure.kind) {
        case 'calling':
          if (w.failurePolicy === 'Ignore') {
            a.recorder?.annotate(`failed-open.mutation.webhook.${env.names.group('admission')}/round_${round}_index_${index}`, w.name, 'Metadata');
            continue;
          }
          return refused(admissionInternalError(failure.failure.message));
        case 'rejection':
        case 'internal':
          return refused(failure.status);
      }
    }
    return admitted;
  } finally {
    state.lastOutput = JSON.stringify(a.object ?? null);
  }
}

/** The key of the review an invocation is sent: the version, and the resource and kind its objects are shown as. */
function reviewKey(invocation: Invocation, version: string): string {
  const k = invocation.kind;
  return `${version} ${invocation.group}/${invocation.version}/${invocation.resource}/${invocation.subresource} ${k.group}/${k.version}/${k.kind}`;
}

/** Runs the validating webhooks of a request in parallel (validating.Dispatch). */
export async function dispatchValidating(a: AdmissionAttributes, hooks: readonly WebhookAccessor[], env: WebhookEnvironment): Promise<AdmissionResult> {
  const found = await invocationsFor(a, hooks, env);
  if (!found.ok) return refused(found.error);
  if (found.value.length === 0) return admitted;
  // Nothing changes the objects while validating webhooks run: webhooks shown them alike share one encoding.
  const encoders = new Map<string, ReviewEncoder>();
  const encoderFor = (invocation: Invocation, version: string): ReviewEncoder => {
    const key = reviewKey(invocation, version);
    let encoder = encoders.get(key);
    if (encoder === undefined) {
      encoder = reviewEncoder(a, invocation, version, env.names, versioned(a.object, invocation), versioned(a.oldObject, invocation));
      encoders.set(key, encoder);
    }
    return encoder;
  };
  let first: Status | undefined;
  const batchStarted = performance.now();
  await Promise.all(found.value.map(async (invocation) => {
    const w = invocation.webhook;
    const index = hooks.indexOf(w);
    const started = performance.now();
    const allowed = await conditionsAllow(env, a, invocation);
    if (allowed.ok && !allowed.value) return;
    let outcome: Outcome;
    if (!allowed.ok) outcome = fail({ kind: 'calling', failure: allowed.error });
    else if (a.dryRun && !dryRunSafe.has(w.sideEffects)) outcome = fail({ kind: 'internal', status: dryRunUnsupported(w.name) });
    else {
      const version = reviewVersionFor(w.admissionReviewVersions);
      if (version === undefined) {
        outcome = fail({ kind: 'calling', failure: { message: `failed calling webhook "${w.name}": webhook does not accept known AdmissionReview versions`, code: 500 } });
      } else {
        const called = await callWebhook(w, encoderFor(invocation, version).request(), env.client(w), env.resolvers, env.names);
        if (!called.ok) outcome = fail({ kind: 'calling', failure: called.error });
        else {
          recordResponse(a, w, called.value);
          outcome = called.value.allowed ? ok(false) : fail({ kind: 'rejection', status: rejectionStatus(w.name, called.value.result) });
        }
      }
    }
    observe(env, w, 'validating', a, outcome, started);
    if (outcome.ok) return;
    const failure = outcome.error;
    if (failure.kind === 'calling' && w.failurePolicy === 'Ignore') {
      a.recorder?.annotate(`failed-open.validating.webhook.${env.names.group('admission')}/round_0_index_${index}`, w.name, 'Metadata');
      return;
    }
    first ??= failure.kind === 'calling' ? admissionInternalError(failure.failure.message) : failure.status;
  }));
  if (a.recorder?.latency !== undefined) a.recorder.latency.webhookSeconds += since(batchStarted);
  return first === undefined ? admitted : refused(first);
}
