print("trackwatch")
