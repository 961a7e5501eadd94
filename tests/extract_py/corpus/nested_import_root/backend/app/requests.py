def get(url):
    pass
