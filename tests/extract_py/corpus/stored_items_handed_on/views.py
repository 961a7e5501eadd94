from web.app import App

app = App()


def index():
    return "index"


@app.errorhandler(404)
def not_found(code):
    return code


app.add_url_rule("/", view_func=index)
