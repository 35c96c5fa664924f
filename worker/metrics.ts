/**
 * The worker's metrics: the Temporal SDK's own series (task latencies, sticky cache, slots,
 * polls) exported by its Prometheus endpoint at WORKER_METRICS_ADDRESS, plus the portal's count of
 * activity executions and failures through the SDK's metric meter, so one scrape reads both. See
 * infra/production/README.md "Metrics and alerts".
 */
import { ApplicationFailure, CancelledFailure, type MetricCounter } from '@temporalio/common';
import { Runtime, type ActivityInterceptorsFactory, type TelemetryOptions } from '@temporalio/worker';
import type { Config } from '../infra/config';

/**
 * The runtime's telemetry: a Prometheus endpoint when WORKER_METRICS_ADDRESS is set. Runtime.install
 * takes it once per process, before any worker or native connection (worker/main.ts).
 */
export function workerTelemetry(config: Pick<Config, 'WORKER_METRICS_ADDRESS'>): TelemetryOptions | undefined {
  if (!config.WORKER_METRICS_ADDRESS) return undefined;
  // The SDK's defaults: series named temporal_*, durations in milliseconds, counters without _total
  // (the names Temporal's own dashboards use).
  return { metrics: { prometheus: { bindAddress: config.WORKER_METRICS_ADDRESS } } };
}

let counters: { runtime: Runtime; executions: MetricCounter; failures: MetricCounter } | undefined;

/** Made on the first activity, from the runtime the worker runs on (a no-op meter without metrics). */
function activityCounters() {
  const runtime = Runtime.instance();
  if (counters?.runtime !== runtime) {
    const meter = runtime.metricMeter;
    counters = {
      runtime,
      executions: meter.createCounter('portal_activity_executions_total', undefined, 'Activity attempts run by this worker'),
      failures: meter.createCounter('portal_activity_failures_total', undefined, 'Activity attempts that failed, by activity type and reason (error: retried under its policy; non_retryable; cancelled)'),
    };
  }
  return counters;
}

/** Why an attempt failed: a plain error is retried under the activity's policy; the other two are final. */
export function failureReason(error: unknown): 'cancelled' | 'non_retryable' | 'error' {
  if (error instanceof CancelledFailure) return 'cancelled';
  if (error instanceof ApplicationFailure && error.nonRetryable) return 'non_retryable';
  return 'error';
}

/**
 * Counts every activity attempt and every failed one, by activity type (and the workflow type that
 * asked, the task queue, whether local). Labels are type names only: no argument or id of a case.
 */
export const activityMetricsInterceptor: ActivityInterceptorsFactory = (ctx) => ({
  inbound: {
    async execute(input, next) {
      const { info } = ctx;
      const labels = { activity_type: info.activityType, workflow_type: info.workflowType ?? 'none', task_queue: info.taskQueue, local: String(info.isLocal) };
      const { executions, failures } = activityCounters();
      executions.add(1, labels);
      try {
        return await next(input);
      } catch (error) {
        failures.add(1, { ...labels, reason: failureReason(error) });
        throw error;
      }
    },
  },
});
