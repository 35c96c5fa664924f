/** The Temporal CLI (`temporal server start-dev`), which `npm start` and the tests run. */
import { findOrBuildGoBinary } from './go-binary';

/** Temporal CLI tag; later tags carry a `replace` directive that `go install pkg@version` refuses. */
export const TEMPORAL_CLI_VERSION = 'v1.5.1';
const TEMPORAL_CLI_PACKAGE = 'github.com/temporalio/cli/cmd/temporal';

/** Path to a `temporal` CLI binary, building Temporal CLI v1.5.1 on first use. */
export async function findTemporalCli(): Promise<string> {
  return findOrBuildGoBinary({
    binary: 'temporal',
    envVar: 'TEMPORAL_CLI_PATH',
    label: `Temporal CLI ${TEMPORAL_CLI_VERSION}`,
    module: `${TEMPORAL_CLI_PACKAGE}@${TEMPORAL_CLI_VERSION}`,
  });
}
