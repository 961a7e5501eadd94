SAVE = "save"
