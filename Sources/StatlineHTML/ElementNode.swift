/// What parsers read of an element, whether it lives in libxml2's tree (`Node`) or in a
/// fragment a stream reader kept (`FragmentNode`): code written against it reads both the same.
public protocol ElementNode {
  /// The element's name, lower case in HTML.
  var name: String { get }
  /// All text below the element, whitespace runs folded into one space and trimmed.
  var text: String { get }
  /// The text of every text node below the element joined by spaces, whitespace-normalized.
  var words: String { get }
  /// Element children, in document order.
  var children: [Self] { get }
  /// An attribute's value, or nil when absent.
  func attribute(_ name: String) -> String?
  /// Element children with this name, in document order.
  func children(named name: String) -> [Self]
  /// Every descendant element with this name, in document order.
  func descendants(named name: String) -> [Self]
  /// The first descendant element with this name, in document order.
  func firstDescendant(named name: String) -> Self?
  /// The first descendant element with this name that passes `matches`, in document order; the
  /// walk stops there (no list of every such element is made).
  func firstDescendant(named name: String, where matches: (Self) -> Bool) -> Self?
}

extension Node: ElementNode {}
