from web.app import App

app = App()


@app.before_request
def load_user():
    return None


@app.teardown_request
def close_db(exc):
    return exc


def not_found(code):
    return code


app.register_error_handler(404, not_found)
