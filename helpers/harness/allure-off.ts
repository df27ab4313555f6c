// The setup file of a suite run without the Allure reporter (the gallery, self-tests): with no test runtime,
// each allure-js-commons call tries allure-playwright's autoconfig and fails, 3 s of CPU per gallery worker.
import { MessageTestRuntime, setGlobalTestRuntime } from 'allure-js-commons/sdk/runtime';

// Each call makes its message and drops it; a step's body is the check itself, and still runs.
class SilentRuntime extends MessageTestRuntime {
  async sendMessage(): Promise<void> {}
}

setGlobalTestRuntime(new SilentRuntime());
