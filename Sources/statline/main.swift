import StatlineApp

StatlineCommand.main()
