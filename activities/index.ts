import type { LeaseUpView } from '../domain';
import type { BlobStore } from '../infra/blobs';
import type { Db } from '../infra/db/database';
import * as leaseUp from './lease-up';

export interface ActivityDeps {
  db: Db;
  blobs: BlobStore;
}

/** Activities receive their clients once; workflows proxy `ReturnType<typeof createActivities>`. */
export function createActivities({ db }: ActivityDeps) {
  return {
    projectApplication: (view: LeaseUpView) => leaseUp.projectApplication(db, view),
    issueLogNumber: ({ applicationId }: { applicationId: string }) => leaseUp.issueLogNumber(db, applicationId),
  };
}
