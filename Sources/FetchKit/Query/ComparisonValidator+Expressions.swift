extension ComparisonValidator {
    /// The operand checked as a scalar, and what it denotes (`nil` for the constant `NULL`): a key path across
    /// to-one relationships, `@count`, an aggregate, a `SUBQUERY` count, arithmetic, `SELF` or a constant.
    func checkScalar(_ operand: FetchPredicate.Operand) throws -> (FetchPredicate.Operand, Subject?) {
        switch operand.node {
        case .key(let key):
            let path = try resolve(key)
            if let hop = path.hops.first(where: { !$0.isToOne }) {
                throw FetchKitError.invalidPredicate(
                    "\(SafeText.quoted(key)) crosses the to-many relationship "
                        + "\(SafeText.quoted(hop.relationship.name)): use ANY, ALL or NONE, "
                        + "@count, an aggregate such as @sum, or SUBQUERY",
                    offset: key.offset)
            }
            return (operand, Subject(name: key.description, type: path.attribute.type, offset: key.offset))
        case .value(let value):
            guard let type = value.attributeType else { return (operand, nil) }
            return (operand, Subject(name: value.description, type: type, offset: nil))
        case .count(let key):
            _ = try toManyPath(key, for: "@count")
            return (operand, Subject(name: key.description + ".@count", type: .integer, offset: key.offset))
        case .object:
            return (operand, Subject(name: "SELF", type: entity.primaryKey.type, offset: nil))
        case .variable(let name, let offset):
            guard let bound = bindings[name] else {
                throw FetchKitError.invalidPredicate("$\(name) has no value", offset: offset)
            }
            return (operand, Subject(name: "$" + name, type: bound.primaryKey.type, offset: offset))
        case .aggregate(let function, let collection, let value):
            return (operand, try checkAggregate(function, collection: collection, value: value))
        case .subquery(let subquery):
            return try checkSubquery(subquery)
        case .arithmetic(let lhs, let op, let rhs):
            return try checkArithmetic(lhs, op, rhs)
        case .list, .elements:
            throw FetchKitError.invalidPredicate("a list cannot be used here", offset: operand.offset)
        }
    }

    /// A key path that ends at a to-many relationship crossing no other (`todos`, `category.todos`,
    /// `$t.tags`), as `@count`, aggregates and `SUBQUERY` need.
    private func toManyPath(_ key: FetchPredicate.Key, for what: String) throws -> ResolvedKeyPath {
        let path = try resolve(key)
        guard let relationship = path.endingRelationship, !relationship.isToOne,
            path.firstToManyHop == path.hops.count - 1
        else {
            throw FetchKitError.invalidPredicate(
                "\(what) needs a to-many relationship; \(SafeText.quoted(key)) is not one", offset: key.offset)
        }
        return path
    }

    // MARK: - Aggregates

    private func checkAggregate(
        _ function: FetchPredicate.AggregateFunction, collection: FetchPredicate.Key, value: FetchPredicate.Key
    ) throws -> Subject {
        let name = "\(collection).@\(function.rawValue).\(value)"
        let destination = try toManyPath(collection, for: "@\(function.rawValue)").entity
        let path = try schema.resolve(value, from: destination)
        if let hop = path.hops.first(where: { !$0.isToOne }) {
            throw FetchKitError.invalidPredicate(
                "\(SafeText.quoted(name)) crosses a second to-many relationship, "
                    + "\(SafeText.quoted(hop.relationship.name))",
                offset: value.offset)
        }
        let type = path.attribute.type
        switch function {
        case .sum, .avg:
            guard type == .integer || type == .double else {
                throw FetchKitError.invalidPredicate(
                    "@\(function.rawValue) needs a number; \(SafeText.quoted(name)) is \(type)", offset: value.offset)
            }
            return Subject(name: name, type: function == .avg ? .double : type, offset: collection.offset)
        case .min, .max:
            guard type != .binary && type != .bool else {
                throw FetchKitError.invalidPredicate(
                    "@\(function.rawValue) needs numbers, texts or dates; \(SafeText.quoted(name)) is \(type)",
                    offset: value.offset)
            }
            return Subject(name: name, type: type, offset: collection.offset)
        }
    }

    // MARK: - SUBQUERY

    private func checkSubquery(
        _ subquery: FetchPredicate.Subquery
    ) throws -> (FetchPredicate.Operand, Subject) {
        let path = try toManyPath(subquery.collection, for: "SUBQUERY")
        guard bindings[subquery.variable] == nil else {
            throw FetchKitError.invalidPredicate(
                "$\(subquery.variable) is already the variable of an enclosing SUBQUERY",
                offset: subquery.collection.offset)
        }
        var inner = self
        inner.bindings[subquery.variable] = path.entity
        var checked = subquery
        checked.predicate = try subquery.predicate.validated(by: inner)
        let name = "SUBQUERY(\(subquery.collection), $\(subquery.variable), …).@count"
        return (.subquery(checked), Subject(name: name, type: .integer, offset: subquery.collection.offset))
    }

    // MARK: - Arithmetic

    private func checkArithmetic(
        _ lhs: FetchPredicate.Operand, _ op: FetchPredicate.ArithmeticOperator, _ rhs: FetchPredicate.Operand
    ) throws -> (FetchPredicate.Operand, Subject?) {
        let (left, leftSubject) = try checkScalar(lhs)
        let (right, rightSubject) = try checkScalar(rhs)
        var type: AttributeType = op == .divide ? .double : .integer
        for subject in [leftSubject, rightSubject].compactMap({ $0 }) {
            switch subject.type {
            case .integer:
                break
            case .double:
                type = .double
            case .date:
                throw FetchKitError.invalidPredicate(
                    "arithmetic with the date \(SafeText.quoted(subject.name)): only a constant date takes seconds "
                        + "(dueDate < %@ + 86400), so move the number to the constant's side",
                    offset: subject.offset)
            default:
                throw FetchKitError.invalidPredicate(
                    "arithmetic needs numbers; \(SafeText.quoted(subject.name)) is \(subject.type)",
                    offset: subject.offset)
            }
        }
        let name = [leftSubject?.name ?? "NULL", op.rawValue, rightSubject?.name ?? "NULL"].joined(separator: " ")
        let offset = leftSubject?.offset ?? rightSubject?.offset
        return (.arithmetic(left, op, right), Subject(name: name, type: type, offset: offset))
    }
}
