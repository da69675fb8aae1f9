print("sample-app")
