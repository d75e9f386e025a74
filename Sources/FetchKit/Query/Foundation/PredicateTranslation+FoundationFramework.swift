import Foundation

extension PredicateTranslation {
    /// Expressions that only Apple's Foundation framework defines (not swift-foundation on Linux),
    /// recognised by name and read by reflection so this file compiles everywhere.
    ///
    /// `$0.title.localizedStandardContains("x")` (`PredicateExpressions.StringLocalizedStandardContains`,
    /// with stored `root` and `other`) becomes `title CONTAINS[cd] "x"`.
    func foundationFrameworkNode(_ expression: Any) throws -> PredicateNode? {
        guard String(describing: type(of: expression)).hasPrefix("StringLocalizedStandardContains<") else {
            return nil
        }
        let children = Dictionary(
            Mirror(reflecting: expression).children.compactMap { child in child.label.map { ($0, child.value) } },
            uniquingKeysWith: { first, _ in first })
        guard let root = children["root"], let other = children["other"] else { return nil }
        let comparison = FetchPredicate.Comparison(
            try operand(root), .contains, try operand(other), options: [.caseInsensitive, .diacriticInsensitive])
        return .predicate(.comparison(comparison))
    }
}
