import { DefaultLogger, Runtime } from '@temporalio/worker';

// Keep the SDK's worker lifecycle chatter out of test output; warnings and errors still show.
Runtime.install({ logger: new DefaultLogger(process.env.TEST_SDK_LOG_LEVEL === 'INFO' ? 'INFO' : 'WARN') });
