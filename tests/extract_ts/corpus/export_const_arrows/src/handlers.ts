export const onLoad = () => init();
export const onSave = async (data: string) => {
  await persist(data);
  return onLoad();
};
const init = () => true;
async function persist(d: string) {
  return d;
}
