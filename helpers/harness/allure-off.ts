// The vitest setup file of a suite run without the Allure reporter (the gallery, self-tests). With no
// test runtime, each allure-js-commons call tries to import allure-playwright's autoconfig, fails, and
// costs about a millisecond: 3 s of CPU per gallery worker. This one answers at once (the reports read
// the task's meta, not Allure).
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
