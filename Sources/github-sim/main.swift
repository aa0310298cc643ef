print("github-sim")
