print("fetchkit")
