/**
 * How a webhook's client config is validated wherever kube-apiserver 1.27 names one (admission webhook
 * configurations, CustomResourceDefinition conversion webhooks): k8s.io/apiserver's util/webhook validation of the
 * `url` and the `service` reference, with its messages.
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import { isDns1123Subdomain } from './name-rules.js';

type Json = Record<string, unknown>;

/** k8s.io/apiserver's ValidateWebhookURL with https required, as webhook configurations and CRD conversion webhooks check their `url`. */
export function validateWebhookUrl(url: string, path: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/.exec(url);
  if (m === null) return [fieldError.required(path, `url must be a valid URL: parse "${url}": missing protocol scheme${form}`)];
  const errs: FieldError[] = [];
  const [, scheme, authority, , query, fragment] = m;
  if (scheme!.toLowerCase() !== 'https') errs.push(fieldError.invalid(path, scheme, `'https' is the only allowed URL scheme${form}`));
  const at = authority!.lastIndexOf('@');
  const host = at < 0 ? authority! : authority!.slice(at + 1);
  if (host === '') errs.push(fieldError.invalid(path, host, `host must be specified${form}`));
  if (at >= 0) errs.push(fieldError.invalid(path, authority!.slice(0, at), 'user information is not permitted in the URL'));
  if (fragment !== undefined && fragment.length > 1) errs.push(fieldError.invalid(path, fragment.slice(1), 'fragments are not permitted in the URL'));
  if (query !== undefined && query.length > 1) errs.push(fieldError.invalid(path, query.slice(1), 'query parameters are not permitted in the URL'));
  return errs;
}

/** k8s.io/apiserver's ValidateWebhookService: a webhook's `service` reference (name, namespace, port, path segments). */
export function validateWebhookService(service: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof service['name'] !== 'string' || service['name'] === '') errs.push(fieldError.required(`${path}.name`, 'service name is required'));
  if (typeof service['namespace'] !== 'string' || service['namespace'] === '') errs.push(fieldError.required(`${path}.namespace`, 'service namespace is required'));
  const port = service['port'];
  if (port !== undefined && (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)) {
    errs.push(fieldError.invalid(`${path}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  }
  const p = service['path'];
  if (typeof p !== 'string' || p === '' || p === '/') return errs;
  if (p === '//') {
    errs.push(fieldError.invalid(`${path}.path`, p, 'segment[0] may not be empty'));
    return errs;
  }
  if (!p.startsWith('/')) errs.push(fieldError.invalid(`${path}.path`, p, "must start with a '/'"));
  let rest = p.startsWith('/') ? p.slice(1) : p;
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  rest.split('/').forEach((step, i) => {
    if (step === '') {
      errs.push(fieldError.invalid(`${path}.path`, p, `segment[${i}] may not be empty`));
      return;
    }
    for (const msg of isDns1123Subdomain(step)) errs.push(fieldError.invalid(`${path}.path`, p, `segment[${i}]: ${msg}`));
  });
  return errs;
}
