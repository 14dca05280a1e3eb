import StatlineHTML

/// The selected option of a page's sport list (`//select[@id='sport_list']/option[@selected]`,
/// the first in document order), read from stream events alongside a page's own reader. Its
/// text names the sport, its value is the season team's id.
struct SelectedSportReader {
  private(set) var option: FragmentNode?
  private var depth = 0
  /// The depth of the open `select#sport_list`.
  private var listDepth: Int?
  private var builder: FragmentBuilder?

  mutating func start(_ element: XMLName, attributes: HTMLAttributes) {
    depth += 1
    if builder != nil {
      builder!.start(element, attributes: attributes)
    } else if element == "select", listDepth == nil, let id = attributes["id"], id == "sport_list" {
      listDepth = depth
    } else if element == "option", option == nil, let listDepth, depth == listDepth + 1, attributes["selected"] != nil {
      builder = FragmentBuilder()
      builder!.start(element, attributes: attributes)
    }
  }

  mutating func end() {
    if builder != nil, let root = builder!.end() {
      option = root
      builder = nil
    }
    if depth == listDepth { listDepth = nil }
    depth -= 1
  }

  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
    builder?.text(bytes)
  }
}
