import Foundation

extension InMemoryPredicate {
    /// The folds `[c]` and `[d]` apply to text, in the compiler's order: case first, then diacritics.
    struct TextFold: Sendable {
        let caseInsensitive: Bool
        let diacriticInsensitive: Bool

        init(_ options: FetchPredicate.StringOptions) {
            caseInsensitive = options.contains(.caseInsensitive)
            diacriticInsensitive = options.contains(.diacriticInsensitive)
        }

        var isIdentity: Bool { !caseInsensitive && !diacriticInsensitive }

        func apply(_ text: String) -> String {
            var result = text
            if caseInsensitive { result = result.fetchKitCaseFolded }
            if diacriticInsensitive { result = result.folding(options: .diacriticInsensitive, locale: nil) }
            return result
        }

        func apply(_ value: Value) -> Value {
            guard !isIdentity, case .text(let text) = value else { return value }
            return .text(apply(text))
        }
    }

    /// One comparison: a column of the row against a constant, a list, a range, a pattern or another column.
    ///
    /// A class, so that evaluating a tree retains one reference per comparison, not each of its fields.
    final class Test: Sendable {
        enum Right: Sendable {
            case value(Value)
            case column(String)
            case list([Value], includesNull: Bool)
            case range(Value, Value)
            case pattern(LikeMatcher)
            /// A pattern operator against `nil` or an empty needle: the compiler writes a constant false.
            case never
        }

        let column: String
        let type: AttributeType
        let op: FetchPredicate.Operator
        let right: Right
        let fold: TextFold
        let mixedNumbers: SQLDialect.MixedNumberComparison

        init(
            column: String, type: AttributeType, op: FetchPredicate.Operator, right: Right, fold: TextFold,
            dialect: SQLDialect
        ) {
            self.column = column
            self.type = type
            self.op = op
            self.right = right
            self.fold = fold
            self.mixedNumbers = dialect.mixedNumberComparison
        }

        /// The test's truth for `row`: `nil` is SQL's unknown.
        func evaluate(_ row: Row) -> Bool? {
            let left = fold.apply(row[column] ?? .null)
            switch right {
            case .never:
                return false
            case .value(let value):
                return compare(left, value)
            case .column(let name):
                let stored = row[name] ?? .null
                let other = fold.apply(stored)
                switch op {
                case .beginsWith, .endsWith, .contains:
                    // `needle <> ''` beside the match (LikePattern.excludingEmptyNeedle), before any fold.
                    if stored == .text("") { return false }
                    guard case .text(let text) = left, case .text(let part) = other else { return nil }
                    return Self.contains(text, part, op)
                case .equal, .notEqual:
                    // Null-safe (`IS NOT DISTINCT FROM`) between two operands that may be NULL.
                    if left.isNull || other.isNull { return (left.isNull && other.isNull) == (op == .equal) }
                    return compare(left, other)
                default:
                    return compare(left, other)
                }
            case .list(let values, let includesNull):
                if left.isNull { return includesNull ? true : (values.isEmpty ? false : nil) }
                return values.contains { order(left, $0) == .orderedSame }
            case .range(let low, let high):
                let above = order(left, low).map { $0 != .orderedAscending }
                let below = order(left, high).map { $0 != .orderedDescending }
                if above == false || below == false { return false }
                if above == nil || below == nil { return nil }
                return true
            case .pattern(let matcher):
                guard case .text(let text) = left else { return nil }
                return matcher.matches(text)
            }
        }

        /// `left op value` for a constant right side.
        private func compare(_ left: Value, _ value: Value) -> Bool? {
            switch op {
            case .equal:
                if value.isNull { return left.isNull }
                return order(left, value).map { $0 == .orderedSame }
            case .notEqual:
                // `IS NOT NULL`, or the null-safe `IS DISTINCT FROM` / a plain `<>` on a non-null column.
                if value.isNull { return !left.isNull }
                if left.isNull { return true }
                return order(left, value).map { $0 != .orderedSame }
            case .lessThan: return order(left, value).map { $0 == .orderedAscending }
            case .lessThanOrEqual: return order(left, value).map { $0 != .orderedDescending }
            case .greaterThan: return order(left, value).map { $0 == .orderedDescending }
            case .greaterThanOrEqual: return order(left, value).map { $0 != .orderedAscending }
            case .in, .between, .beginsWith, .endsWith, .contains, .like, .matches: return nil
            }
        }

        /// How the database orders two values of comparable types; `nil` when either is `NULL`.
        func order(_ left: Value, _ right: Value) -> ComparisonResult? {
            switch (left, right) {
            case (.null, _), (_, .null):
                return nil
            case (.text(let a), .text(let b)):
                return compareBytes(a.utf8, b.utf8)
            case (.blob(let a), .blob(let b)):
                return compareBytes(a, b)
            default:
                guard let a = left.orderNumber, let b = right.orderNumber else { return nil }
                if mixedNumbers == .asDouble {
                    switch (a, b) {
                    case (.integer(let i), .double(let d)): return OrderNumber.double(Double(i)).compare(to: .double(d))
                    case (.double(let d), .integer(let i)): return OrderNumber.double(d).compare(to: .double(Double(i)))
                    default: break
                    }
                }
                return a.compare(to: b)
            }
        }

        /// `BEGINSWITH`, `ENDSWITH` or `CONTAINS` with another column's non-empty text, by bytes (`LIKE` on
        /// the column's escaped text).
        private static func contains(_ text: String, _ part: String, _ op: FetchPredicate.Operator) -> Bool {
            let haystack = Array(text.utf8)
            let needle = Array(part.utf8)
            guard needle.count <= haystack.count else { return false }
            switch op {
            case .beginsWith: return haystack.starts(with: needle)
            case .endsWith: return haystack.suffix(needle.count).elementsEqual(needle)
            default:
                // Empty only when a `[d]` fold removed every scalar: `LIKE '%%'` then matches.
                if needle.isEmpty { return true }
                for start in 0...(haystack.count - needle.count)
                where haystack[start..<(start + needle.count)].elementsEqual(needle) {
                    return true
                }
                return false
            }
        }
    }
}
