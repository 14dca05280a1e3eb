import StatlineApp

/// The `statline` executable: everything lives in `StatlineApp`, so tests build what the CLI runs.
@main
enum StatlineMain {
  static func main() async {
    await StatlineCommand.main()
  }
}
