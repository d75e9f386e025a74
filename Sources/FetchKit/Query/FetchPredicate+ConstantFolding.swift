import Foundation

/// Comparisons whose two sides are constants (`1 BETWEEN {0, 33}`, `YES == YES`, `'b' > 'a'`): folded to
/// `TRUEPREDICATE` or `FALSEPREDICATE` when a predicate is validated, with NSPredicate's meaning, so they
/// mean the same on every backend and in memory.
///
/// Numbers compare by value (`1 == 1.0`, `YES == 1`), text by code point after the folds `[c]` and `[d]`
/// ask for, dates and data in their order; `NULL` equals only `NULL`, and an ordering against `NULL` is
/// false. The string operators are not folded here: a constant on their left compiles as it is.
enum ConstantFolding {
    /// The truth of `comparison` when both its sides are constants and its operator is an equality, an
    /// ordering, `BETWEEN` or `IN`; `nil` otherwise.
    ///
    /// - Throws: ``FetchKitError/Code/invalidPredicate`` for constants that cannot be compared (a text
    ///   against a number, say).
    static func fold(_ comparison: FetchPredicate.Comparison) throws -> Bool? {
        guard comparison.quantifier == .one, case .value(let left) = comparison.lhs.node else { return nil }
        let fold = InMemoryPredicate.TextFold(comparison.options)
        let lhs = fold.apply(left)
        switch (comparison.op, comparison.rhs.node) {
        case (.equal, .value(let right)):
            return try equal(lhs, fold.apply(right))
        case (.notEqual, .value(let right)):
            return try !equal(lhs, fold.apply(right))
        case (.lessThan, .value(let right)):
            return try order(lhs, fold.apply(right)).map { $0 == .orderedAscending } ?? false
        case (.lessThanOrEqual, .value(let right)):
            return try order(lhs, fold.apply(right)).map { $0 != .orderedDescending } ?? false
        case (.greaterThan, .value(let right)):
            return try order(lhs, fold.apply(right)).map { $0 == .orderedDescending } ?? false
        case (.greaterThanOrEqual, .value(let right)):
            return try order(lhs, fold.apply(right)).map { $0 != .orderedAscending } ?? false
        case (.between, .list(let bounds)) where bounds.count == 2:
            guard let low = try order(lhs, fold.apply(bounds[0])), let high = try order(lhs, fold.apply(bounds[1]))
            else { return false }
            return low != .orderedAscending && high != .orderedDescending
        case (.in, .list(let values)):
            for value in values where try equal(lhs, fold.apply(value)) { return true }
            return false
        default:
            return nil
        }
    }

    /// NSPredicate's `==` between constants: `NULL` equals only `NULL`.
    private static func equal(_ a: Value, _ b: Value) throws -> Bool {
        if a.isNull || b.isNull { return a.isNull && b.isNull }
        return try order(a, b) == .orderedSame
    }

    /// The order of two constants; `nil` when either is `NULL`.
    private static func order(_ a: Value, _ b: Value) throws -> ComparisonResult? {
        switch (a, b) {
        case (.null, _), (_, .null):
            return nil
        case (.integer(let x), .integer(let y)):
            return x < y ? .orderedAscending : x == y ? .orderedSame : .orderedDescending
        case (.text(let x), .text(let y)):
            return x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars)
                ? .orderedAscending
                : x.unicodeScalars.elementsEqual(y.unicodeScalars) ? .orderedSame : .orderedDescending
        case (.date(let x), .date(let y)):
            return x < y ? .orderedAscending : x == y ? .orderedSame : .orderedDescending
        case (.blob(let x), .blob(let y)):
            return x.lexicographicallyPrecedes(y) ? .orderedAscending : x == y ? .orderedSame : .orderedDescending
        default:
            guard let x = number(a), let y = number(b) else {
                throw FetchKitError.invalidPredicate(
                    "cannot compare the constants \(a) and \(b) (\(describe(a)) and \(describe(b)))", offset: nil)
            }
            return x < y ? .orderedAscending : x == y ? .orderedSame : .orderedDescending
        }
    }

    /// A number's value (`YES` is 1, as an `NSNumber`).
    private static func number(_ value: Value) -> Double? {
        switch value {
        case .integer(let integer): return Double(integer)
        case .double(let double): return double
        case .bool(let bool): return bool ? 1 : 0
        default: return nil
        }
    }

    private static func describe(_ value: Value) -> String {
        value.attributeType.map { "\($0)" } ?? "NULL"
    }
}
