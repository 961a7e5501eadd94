function request(path: string) {
  return fetch(path);
}
export const api = {
  base: "/api",
  get(path: string) {
    return request(this.base + path);
  },
  post: (path: string) => request(path),
  admin: {
    reset() {
      return api.get("/reset");
    },
  },
  list: function () {
    return this.get("/list");
  },
};
api.get("/x");
api.admin.reset();
