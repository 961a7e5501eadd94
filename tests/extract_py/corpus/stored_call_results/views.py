from web.app import App, View

app = App()


class Items(View):
    def dispatch_request(self):
        return []


app.add_url_rule("/items", view_func=Items.as_view("items"))
app.dispatch("/items")
