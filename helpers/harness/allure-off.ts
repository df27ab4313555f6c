// The setup file of a suite run without the Allure reporter (the gallery, self-tests): with no test runtime,
// each allure-js-commons call tries allure-playwright's autoconfig and fails, 3 s of CPU per gallery worker.
import { setGlobalTestRuntime, type TestRuntime } from 'allure-js-commons/sdk/runtime';

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
