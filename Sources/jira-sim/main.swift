print("jira-sim")
