# a folder, not a package: it is no import of yaml
def safe_load(text):
    pass
