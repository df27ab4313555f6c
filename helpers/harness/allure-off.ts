// The vitest setup file of a suite run without the Allure reporter (the gallery, and self-tests that
// certify in their own process). With no test runtime installed, each allure-js-commons call of the
// suites tries to import allure-playwright's autoconfig, fails, and costs about a millisecond: about
// 3 s of CPU per gallery worker. This one answers at once; the task's meta does not go through Allure.
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
