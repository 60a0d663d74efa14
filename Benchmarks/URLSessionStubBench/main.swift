fatalError("later")
