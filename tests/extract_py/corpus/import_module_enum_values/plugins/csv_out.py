def run():
    return "csv"
