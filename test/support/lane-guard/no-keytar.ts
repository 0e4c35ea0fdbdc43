// The unit lane's keytar: any use throws. A unit test that reaches the keychain belongs in the
// integration lane; failing here says so, where a missing Secret Service would only skip it.
const refuse = (): never => {
  throw new Error(
    'unit lane: this test uses the keychain (keytar); name it *.integration.test.ts (test/support/lanes.ts)',
  );
};
const keytar = {
  getPassword: refuse,
  setPassword: refuse,
  deletePassword: refuse,
  findCredentials: refuse,
  findPassword: refuse,
};
export default keytar;
export const { getPassword, setPassword, deletePassword, findCredentials, findPassword } = keytar;
