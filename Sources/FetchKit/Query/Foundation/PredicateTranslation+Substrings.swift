import Foundation

extension PredicateTranslation {
    /// `base.contains(needle)` or `base.starts(with: needle)` with Swift's meaning, which differs from
    /// NSPredicate's (and so from `CONTAINS` and `BEGINSWITH`, which follow NSPredicate) for an empty needle:
    /// every text contains `""` and starts with it in Swift, none does in NSPredicate.
    ///
    /// - a constant empty needle: `base != nil` (true for every stored text);
    /// - another constant: `base CONTAINS needle`, which an empty needle cannot reach;
    /// - a property: `base CONTAINS needle OR (needle == '' AND base != nil)`.
    ///
    /// A `nil` base (a forced unwrap, `$0.notes!.contains("")`) makes the whole predicate false, as with
    /// every other comparison of a forced unwrap.
    func substringComparison(_ base: Any, _ op: FetchPredicate.Operator, _ needle: Any) throws -> PredicateNode {
        let subject = try operand(base)
        let part = try operand(needle)
        let match = FetchPredicate.comparison(.init(subject, op, part))
        let present = FetchPredicate.comparison(.init(subject, .notEqual, .value(.null)))
        switch part.node {
        case .value(.text("")):
            return .predicate(present)
        case .value:
            return .predicate(match)
        default:
            let empty = FetchPredicate.comparison(.init(part, .equal, .value(.text(""))))
            return .predicate(.or([match, .and([empty, present])]))
        }
    }
}
