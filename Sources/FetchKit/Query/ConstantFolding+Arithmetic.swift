import Foundation

extension ConstantFolding {
    /// The operand with its arithmetic on constants computed (`(1 + 2) * 3` is 9, `%@ + 86400` a date a day
    /// later) and a list literal whose elements are all constants made a `.list`.
    ///
    /// Integers stay integers under `+`, `-` and `*`; `/` divides as floating point and by zero gives `NULL`;
    /// `NULL` in an operation gives `NULL`. A date plus or minus a number of seconds is a date.
    ///
    /// - Throws: ``FetchKitError/Code/invalidPredicate`` for an integer overflow, or arithmetic on a
    ///   text, a boolean or data, or on two dates.
    static func folded(_ operand: FetchPredicate.Operand) throws -> FetchPredicate.Operand {
        switch operand.node {
        case .arithmetic(let lhs, let op, let rhs):
            let left = try folded(lhs)
            let right = try folded(rhs)
            // SQL's NULL propagation: `x + NULL` is NULL whatever x is.
            if case .value(.null) = left.node { return left }
            if case .value(.null) = right.node { return right }
            guard case .value(let a) = left.node, case .value(let b) = right.node else {
                return .arithmetic(left, op, right)
            }
            return .value(try compute(a, op, b))
        case .elements(let elements):
            return .collapsing(try elements.map(folded))
        default:
            return operand
        }
    }

    private static func compute(
        _ a: Value, _ op: FetchPredicate.ArithmeticOperator, _ b: Value
    ) throws -> Value {
        switch (a, b) {
        case (.null, _), (_, .null):
            return .null
        case (.integer(let x), .integer(let y)) where op != .divide:
            let (result, overflow): (Int64, Bool)
            switch op {
            case .add: (result, overflow) = x.addingReportingOverflow(y)
            case .subtract: (result, overflow) = x.subtractingReportingOverflow(y)
            default: (result, overflow) = x.multipliedReportingOverflow(by: y)
            }
            guard !overflow else {
                throw FetchKitError.invalidPredicate("\(x) \(op.rawValue) \(y) overflows a 64-bit integer", offset: nil)
            }
            return .integer(result)
        case (.date(let date), _) where op == .add || op == .subtract:
            guard let seconds = arithmeticNumber(b) else { throw unsupported(a, op, b) }
            return .date(date.addingTimeInterval(op == .add ? seconds : -seconds))
        case (_, .date(let date)) where op == .add:
            guard let seconds = arithmeticNumber(a) else { throw unsupported(a, op, b) }
            return .date(date.addingTimeInterval(seconds))
        default:
            guard let x = arithmeticNumber(a), let y = arithmeticNumber(b) else { throw unsupported(a, op, b) }
            switch op {
            case .add: return .double(x + y)
            case .subtract: return .double(x - y)
            case .multiply: return .double(x * y)
            case .divide: return y == 0 ? .null : .double(x / y)
            }
        }
    }

    /// A number's value for arithmetic: integers and doubles, not booleans.
    private static func arithmeticNumber(_ value: Value) -> Double? {
        switch value {
        case .integer(let integer): return Double(integer)
        case .double(let double): return double
        default: return nil
        }
    }

    private static func unsupported(_ a: Value, _ op: FetchPredicate.ArithmeticOperator, _ b: Value) -> FetchKitError {
        .invalidPredicate(
            "cannot compute \(a) \(op.rawValue) \(b): arithmetic needs numbers, or a date and a "
                + "number of seconds", offset: nil)
    }
}
