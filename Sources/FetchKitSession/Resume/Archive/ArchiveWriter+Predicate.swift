@_spi(Backend) import FetchKit

/// A predicate's syntax tree as bytes, for ``RequestIdentity``: each node is a tag then its parts, so two trees
/// give the same bytes only when they are equal. A case added to a node fails to compile here until written.
extension ArchiveWriter {
    mutating func predicate(_ predicate: FetchPredicate) {
        switch predicate.node {
        case .constant(let value):
            byte(0)
            bool(value)
        case .and(let predicates):
            byte(1)
            self.predicates(predicates)
        case .or(let predicates):
            byte(2)
            self.predicates(predicates)
        case .not(let predicate):
            byte(3)
            self.predicate(predicate)
        case .comparison(let comparison):
            byte(4)
            operand(comparison.lhs)
            string(comparison.op.rawValue)
            operand(comparison.rhs)
            byte(comparison.options.rawValue)
            byte(Self.tag(of: comparison.quantifier))
        }
    }

    private mutating func predicates(_ predicates: [FetchPredicate]) {
        count(predicates.count)
        for predicate in predicates { self.predicate(predicate) }
    }

    private static func tag(of quantifier: FetchPredicate.Quantifier) -> UInt8 {
        switch quantifier {
        case .one: 0
        case .any: 1
        case .all: 2
        case .none: 3
        }
    }

    /// A key path by its components (its offset in a format string is not part of its meaning).
    private mutating func key(_ key: FetchPredicate.Key) { strings(key.components) }

    private mutating func operand(_ operand: FetchPredicate.Operand) {
        switch operand.node {
        case .key(let key):
            byte(0)
            self.key(key)
        case .value(let value):
            byte(1)
            self.value(value)
        case .list(let values):
            byte(2)
            self.values(values)
        case .count(let key):
            byte(3)
            self.key(key)
        case .variable(let name, _):
            byte(4)
            string(name)
        case .object: byte(5)
        case .elements(let operands):
            byte(6)
            count(operands.count)
            for operand in operands { self.operand(operand) }
        case .arithmetic(let lhs, let op, let rhs):
            byte(7)
            self.operand(lhs)
            string(op.rawValue)
            self.operand(rhs)
        case .aggregate(let function, let collection, let value):
            byte(8)
            string(function.rawValue)
            key(collection)
            key(value)
        case .subquery(let subquery):
            byte(9)
            key(subquery.collection)
            string(subquery.variable)
            predicate(subquery.predicate)
        }
    }
}
