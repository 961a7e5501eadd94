def publish():
    pass
