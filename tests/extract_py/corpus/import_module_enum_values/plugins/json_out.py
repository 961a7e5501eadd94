def run():
    return "json"
