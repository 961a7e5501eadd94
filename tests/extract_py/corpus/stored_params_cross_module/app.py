from web.core import App, Bus, Timer

app = App()
bus = Bus()


@app.route("/")
def index():
    return "index"


def on_saved(event):
    return event


def tick():
    return 1


bus.subscribe(on_saved)
timer = Timer(tick)
