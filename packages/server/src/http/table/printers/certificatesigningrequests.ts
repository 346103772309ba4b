/**
 * CertificateSigningRequests: Name, Age, SignerName, Requestor (the requesting user), RequestedDuration
 * (`<none>`), Condition (`Denied`/`Approved`/`Pending`, then `,Failed` and `,Issued`) (printCertificateSigningRequest, 1.27).
 */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, humanDuration, list, since, str } from '../format.js';

const csr = 'io.k8s.api.certificates.v1';

/** extractCSRStatus. */
function condition(obj: Record<string, unknown>): string {
  const types = new Set(list(obj, 'status', 'conditions').map((c) => str(c, 'type')));
  let status = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) status += ',Failed';
  if (str(obj, 'status', 'certificate') !== '') status += ',Issued';
  return status;
}

/** The certificatesigningrequests printer. */
export const certificateSigningRequestPrinter: TablePrinter = {
  columns: [
    nameColumn,
    ageColumn,
    docColumn('SignerName', `${csr}.CertificateSigningRequestSpec`, 'signerName'),
    // Upstream describes Requestor with the doc of `request`.
    docColumn('Requestor', `${csr}.CertificateSigningRequestSpec`, 'request'),
    docColumn('RequestedDuration', `${csr}.CertificateSigningRequestSpec`, 'expirationSeconds'),
    docColumn('Condition', `${csr}.CertificateSigningRequestStatus`, 'conditions'),
  ],
  cells(obj, ctx) {
    const seconds = get(obj, 'spec', 'expirationSeconds');
    return [
      str(obj, 'metadata', 'name'), since(get(obj, 'metadata', 'creationTimestamp'), ctx.now), str(obj, 'spec', 'signerName') || '<none>',
      str(obj, 'spec', 'username'), typeof seconds === 'number' ? humanDuration(seconds * 1000) : '<none>', condition(obj),
    ];
  },
};
