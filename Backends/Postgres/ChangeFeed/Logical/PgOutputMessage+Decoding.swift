extension PgOutputMessage {
    /// Decodes one `pgoutput` message (protocol version 1, no streamed transactions).
    ///
    /// - Throws: ``ReplicationDecodingError`` for an unknown message kind, a message cut short or followed by
    ///   bytes it does not use, or a row image of an unknown kind — with the byte where reading stopped.
    init(decoding bytes: [UInt8]) throws(ReplicationDecodingError) {
        var reader = ReplicationByteReader(bytes)
        let kind = try reader.byte("the message kind")
        switch kind {
        case UInt8(ascii: "B"):
            let final = try reader.position("Begin's final position")
            let time = try reader.int64("Begin's commit time")
            self = .begin(finalPosition: final, committedAt: time, transactionID: try reader.uint32("Begin's xid"))
        case UInt8(ascii: "C"):
            _ = try reader.byte("Commit's flags")
            let position = try reader.position("Commit's position")
            let end = try reader.position("Commit's end")
            self = .commit(position: position, end: end, committedAt: try reader.int64("Commit's time"))
        case UInt8(ascii: "O"):
            let position = try reader.position("Origin's position")
            self = .origin(position: position, name: try reader.string("Origin's name"))
        case UInt8(ascii: "R"):
            self = .relation(try Self.relation(&reader))
        case UInt8(ascii: "Y"):
            let id = try reader.uint32("Type's OID")
            let namespace = try reader.string("Type's namespace")
            self = .type(id: id, namespace: namespace, name: try reader.string("Type's name"))
        case UInt8(ascii: "I"):
            let relation = try reader.uint32("Insert's relation")
            try Self.expect(&reader, "N", "Insert's new row")
            self = .insert(relation: relation, new: try Self.tuple(&reader))
        case UInt8(ascii: "U"):
            let relation = try reader.uint32("Update's relation")
            var old: OldImage?
            var marker = try reader.byte("Update's row kind")
            if marker == UInt8(ascii: "K") || marker == UInt8(ascii: "O") {
                let values = try Self.tuple(&reader)
                old = marker == UInt8(ascii: "K") ? .key(values) : .row(values)
                marker = try reader.byte("Update's new row kind")
            }
            guard marker == UInt8(ascii: "N") else {
                throw ReplicationDecodingError(
                    offset: reader.offset - 1,
                    reason: "Update's new row starts with \(ReplicationStreamMessage.name(marker)), not 'N'")
            }
            self = .update(relation: relation, old: old, new: try Self.tuple(&reader))
        case UInt8(ascii: "D"):
            let relation = try reader.uint32("Delete's relation")
            let marker = try reader.byte("Delete's row kind")
            guard marker == UInt8(ascii: "K") || marker == UInt8(ascii: "O") else {
                throw ReplicationDecodingError(
                    offset: reader.offset - 1,
                    reason: "Delete's old row starts with \(ReplicationStreamMessage.name(marker)), not 'K' or 'O'")
            }
            let values = try Self.tuple(&reader)
            self = .delete(relation: relation, old: marker == UInt8(ascii: "K") ? .key(values) : .row(values))
        case UInt8(ascii: "T"):
            let count = try reader.int32("Truncate's relation count")
            let options = try reader.byte("Truncate's options")
            guard count >= 0 else {
                throw ReplicationDecodingError(offset: 1, reason: "Truncate names \(count) relations")
            }
            var relations: [UInt32] = []
            for _ in 0..<count { relations.append(try reader.uint32("a truncated relation")) }
            self = .truncate(relations: relations, cascade: options & 1 != 0, restartIdentity: options & 2 != 0)
        case UInt8(ascii: "M"):
            let flags = try reader.byte("Message's flags")
            let position = try reader.position("Message's position")
            let prefix = try reader.string("Message's prefix")
            let length = try reader.int32("Message's length")
            let content = try reader.take(Int(length), "Message's content")
            self = .message(transactional: flags & 1 != 0, position: position, prefix: prefix, content: content)
        default:
            throw ReplicationDecodingError(
                offset: 0, reason: "unknown pgoutput message kind \(ReplicationStreamMessage.name(kind))")
        }
        guard reader.isAtEnd else {
            let extra = bytes.count - reader.offset
            throw ReplicationDecodingError(
                offset: reader.offset,
                reason: (extra == 1 ? "1 byte follows" : "\(extra) bytes follow") + " the message")
        }
    }

    private static func relation(_ reader: inout ReplicationByteReader) throws(ReplicationDecodingError) -> Relation {
        let id = try reader.uint32("Relation's OID")
        let namespace = try reader.string("Relation's namespace")
        let name = try reader.string("Relation's name")
        let identity = Character(Unicode.Scalar(try reader.byte("Relation's replica identity")))
        let count = try reader.int16("Relation's column count")
        guard count >= 0 else {
            throw ReplicationDecodingError(offset: reader.offset - 2, reason: "Relation has \(count) columns")
        }
        var columns: [Relation.Column] = []
        columns.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let flags = try reader.byte("column \(index)'s flags")
            let column = try reader.string("column \(index)'s name")
            let type = try reader.uint32("column \(index)'s type")
            let modifier = try reader.int32("column \(index)'s type modifier")
            columns.append(.init(name: column, isKey: flags & 1 != 0, typeID: type, typeModifier: modifier))
        }
        return Relation(id: id, namespace: namespace, name: name, replicaIdentity: identity, columns: columns)
    }

    /// A row image: a count, then each column's kind and value.
    private static func tuple(_ reader: inout ReplicationByteReader) throws(ReplicationDecodingError) -> [Value] {
        let count = try reader.int16("the row's column count")
        guard count >= 0 else {
            throw ReplicationDecodingError(offset: reader.offset - 2, reason: "a row has \(count) columns")
        }
        var values: [Value] = []
        values.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let kind = try reader.byte("column \(index)'s kind")
            switch kind {
            case UInt8(ascii: "n"): values.append(.null)
            case UInt8(ascii: "u"): values.append(.unchanged)
            case UInt8(ascii: "t"), UInt8(ascii: "b"):
                let length = try reader.int32("column \(index)'s length")
                let bytes = try reader.take(Int(length), "column \(index)'s value")
                values.append(
                    kind == UInt8(ascii: "t") ? .text(String(decoding: bytes, as: UTF8.self)) : .binary(bytes))
            default:
                throw ReplicationDecodingError(
                    offset: reader.offset - 1,
                    reason: "column \(index)'s value is of unknown kind \(ReplicationStreamMessage.name(kind))")
            }
        }
        return values
    }

    private static func expect(
        _ reader: inout ReplicationByteReader, _ marker: Unicode.Scalar, _ field: String
    ) throws(ReplicationDecodingError) {
        let byte = try reader.byte(field)
        guard byte == UInt8(ascii: marker) else {
            throw ReplicationDecodingError(
                offset: reader.offset - 1,
                reason: "\(field) starts with \(ReplicationStreamMessage.name(byte)), not '\(marker)'")
        }
    }
}
