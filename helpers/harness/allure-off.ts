// The vitest setup file of a suite run without the Allure reporter: the mutation gallery and the
// self-tests that certify in their own process (a certification through the command always has it).
// The suites label and attach through allure-js-commons either way; with no test runtime installed,
// every such call tries to import allure-playwright's autoconfig, fails, and costs about a millisecond
// of module resolution: about 3 s of CPU per gallery worker. A runtime that does nothing answers at
// once; what the suites keep for their own reports (the task's meta) does not go through Allure.
import type { TestRuntime } from 'allure-js-commons/sdk/runtime';
import { setGlobalTestRuntime } from 'allure-js-commons/sdk/runtime';

const nothing = async (): Promise<void> => {};

const silentRuntime: TestRuntime = {
  labels: nothing,
  links: nothing,
  parameter: nothing,
  description: nothing,
  descriptionHtml: nothing,
  displayName: nothing,
  historyId: nothing,
  testCaseId: nothing,
  attachment: nothing,
  globalAttachment: nothing,
  globalAttachmentFromPath: nothing,
  globalError: nothing,
  attachmentFromPath: nothing,
  logStep: nothing,
  // A step's body is the check itself: it still runs.
  step: async (_name, body) => body(),
  stepDisplayName: nothing,
  stepParameter: nothing,
};

setGlobalTestRuntime(silentRuntime);
