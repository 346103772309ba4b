/**
 * The libraries of kube-apiserver 1.27's expression environment besides the standard ones (k8s.io/apiserver
 * library.ExtensionLibs): the strings extension, and Kubernetes' URL, regex, list and authorizer libraries. Not in
 * 1.27, so not here: optionals, `cel.bind`, sets, quantity, IP/CIDR, and the strings extension's later versions
 * (`format`, `quote`, `reverse`).
 */
import { authzLibrary } from './library-authz.js';
import type { CelLibrary } from './library.js';
import { listsLibrary } from './library-lists.js';
import { regexLibrary } from './library-regex.js';
import { stringsLibrary } from './library-strings.js';
import { urlsLibrary } from './library-urls.js';

/** Every library of the 1.27 environment. */
export const kubernetesLibraries: readonly CelLibrary[] = [stringsLibrary, urlsLibrary, regexLibrary, listsLibrary, authzLibrary];
