print("compass-sim")
