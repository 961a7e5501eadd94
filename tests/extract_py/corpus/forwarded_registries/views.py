from web.app import App

app = App()


def index():
    return "index"


@app.route("/about")
def about():
    return "about"


@app.get("/items")
def items():
    return []


@app.post("/items")
def create_item():
    return {}


app.add_url_rule("/", "index", index)

if __name__ == "__main__":
    app.command("run")
