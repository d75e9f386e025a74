@_spi(Backend) import FetchKit
import FetchKitBackendKit

/// The value of each kind of operand for the scope's row, as the backends' SQL computes it.
extension InMemoryEvaluator {
    /// The operand's value for the scope's row, and its type.
    func operand(_ operand: FetchPredicate.Operand, in scope: Scope) throws -> (value: Value, type: AttributeType) {
        switch operand.node {
        case .key(let key):
            let (row, path) = try start(key, in: scope)
            guard !path.crossesToMany else {
                throw FetchKitError.invalidPredicate(
                    "'\(key)' crosses a to-many relationship: use ANY, ALL or NONE, or @count", offset: key.offset)
            }
            return (database.value(of: path, from: row), path.attribute.type)
        case .count(let key):
            let (_, rows) = try rowsAcross(key, for: "@count", in: scope)
            return (.integer(Int64(rows.count)), .integer)
        case .variable(let name, let offset):
            guard let bound = scope.variables[name] else {
                throw FetchKitError.invalidPredicate(
                    "a variable cannot be compared here; validate the predicate first", offset: offset)
            }
            return (bound.row[bound.entity.primaryKey.name] ?? .null, bound.entity.primaryKey.type)
        case .object:
            return (scope.row[scope.entity.primaryKey.name] ?? .null, scope.entity.primaryKey.type)
        case .value(let value):
            return (value, value.attributeType ?? .text)
        case .arithmetic(let lhs, let op, let rhs):
            return try arithmetic(lhs, op, rhs, in: scope)
        case .aggregate(let function, let collection, let value):
            return try aggregate(function, collection: collection, value: value, in: scope)
        case .subquery(let subquery):
            let (entity, rows) = try rowsAcross(subquery.collection, for: "SUBQUERY", in: scope)
            var inner = scope
            var count: Int64 = 0
            for row in rows {
                inner.variables[subquery.variable] = (entity, row)
                if try evaluate(subquery.predicate, in: inner) { count += 1 }
            }
            return (.integer(count), .integer)
        case .list, .elements:
            throw FetchKitError.invalidPredicate(
                "a list cannot be compared here; validate the predicate first", offset: nil)
        }
    }

    /// `+`, `-`, `*` keep integers integers (a result beyond 64 bits becomes a double, as SQLite makes it);
    /// `/` divides as floating point and gives `NULL` for a zero divisor; `NULL` in, `NULL` out.
    private func arithmetic(
        _ lhs: FetchPredicate.Operand, _ op: FetchPredicate.ArithmeticOperator, _ rhs: FetchPredicate.Operand,
        in scope: Scope
    ) throws -> (value: Value, type: AttributeType) {
        let right = try operand(rhs, in: scope)
        if case .value(.integer(0)) = lhs.node, op == .subtract {
            // Unary minus, `(-x)`: the operand's type.
            switch Number(right.value) {
            case .integer(let integer)?:
                return (integer == .min ? .double(-Double(integer)) : .integer(-integer), right.type)
            case .double(let double)?: return (.double(-double), right.type)
            case nil: return (.null, right.type)
            }
        }
        let left = try operand(lhs, in: scope)
        guard op != .divide else {
            guard let a = Number(left.value)?.double, let b = Number(right.value)?.double, b != 0 else {
                return (.null, .double)
            }
            return (.double(a / b), .double)
        }
        let type: AttributeType = left.type == .double || right.type == .double ? .double : .integer
        switch (Number(left.value), Number(right.value)) {
        case (.integer(let a)?, .integer(let b)?):
            let (exact, overflow): (Int64, Bool)
            switch op {
            case .add: (exact, overflow) = a.addingReportingOverflow(b)
            case .subtract: (exact, overflow) = a.subtractingReportingOverflow(b)
            default: (exact, overflow) = a.multipliedReportingOverflow(by: b)
            }
            guard overflow else { return (.integer(exact), type) }
            return (.double(Self.apply(op, Double(a), Double(b))), .double)
        case (let a?, let b?):
            return (.double(Self.apply(op, a.double, b.double)), type)
        default:
            return (.null, type)
        }
    }

    private static func apply(_ op: FetchPredicate.ArithmeticOperator, _ a: Double, _ b: Double) -> Double {
        switch op {
        case .add: return a + b
        case .subtract: return a - b
        case .multiply: return a * b
        case .divide: return a / b
        }
    }

    /// `@sum` (0 over no value), `@avg` (a double), `@min`, `@max` (in the database's order) of the values
    /// the key path `value` reads on each row across `collection`, `NULL`s skipped.
    private func aggregate(
        _ function: FetchPredicate.AggregateFunction, collection: FetchPredicate.Key, value: FetchPredicate.Key,
        in scope: Scope
    ) throws -> (value: Value, type: AttributeType) {
        let (entity, rows) = try rowsAcross(collection, for: "@\(function.rawValue)", in: scope)
        let path = try schema.resolve(value, from: entity)
        let type = path.attribute.type
        let values = rows.map { database.value(of: path, from: $0) }.filter { !$0.isNull }
        switch function {
        case .sum:
            return (Self.sum(values.compactMap(Number.init)), type)
        case .avg:
            guard !values.isEmpty else { return (.null, .double) }
            let total = values.compactMap { Number($0)?.double }.reduce(0, +)
            return (.double(total / Double(values.count)), .double)
        case .min:
            return (values.min { Value.databaseOrder($0, $1) == .orderedAscending } ?? .null, type)
        case .max:
            return (values.max { Value.databaseOrder($0, $1) == .orderedAscending } ?? .null, type)
        }
    }

    /// The total of `numbers`: an integer while every number is one and the total fits, else a double.
    private static func sum(_ numbers: [Number]) -> Value {
        var integer: Int64 = 0
        var isExact = true
        for number in numbers {
            guard case .integer(let value) = number else {
                isExact = false
                break
            }
            let (total, overflow) = integer.addingReportingOverflow(value)
            guard !overflow else {
                isExact = false
                break
            }
            integer = total
        }
        return isExact ? .integer(integer) : .double(numbers.reduce(0) { $0 + $1.double })
    }

    /// A number an expression computes with (`YES` is 1).
    enum Number {
        case integer(Int64)
        case double(Double)

        init?(_ value: Value) {
            switch value {
            case .integer(let integer): self = .integer(integer)
            case .double(let double): self = .double(double)
            case .bool(let bool): self = .integer(bool ? 1 : 0)
            default: return nil
            }
        }

        var double: Double {
            switch self {
            case .integer(let integer): return Double(integer)
            case .double(let double): return double
            }
        }
    }
}
