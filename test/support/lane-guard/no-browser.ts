// The unit lane's playwright-core: launching a browser throws. A unit test that needs Chromium
// belongs in the e2e lane; failing here says so instead of slowing the fast lane down.
const refuse = (): never => {
  throw new Error(
    'unit lane: this test starts Chromium; name it *.e2e.test.ts (test/support/lanes.ts)',
  );
};
const browserType = { launch: refuse, launchPersistentContext: refuse, connect: refuse };
export const chromium = browserType;
export const firefox = browserType;
export const webkit = browserType;
export default { chromium, firefox, webkit };
