import StoreKitCore
import StoreKitJSON

extension SessionLineValidator {
    /// What the action fast path reads of a line's top-level members, member by member.
    struct ActionFields {
        var sequence: Int?
        /// Which member holds the time, a number: its text is read only when needed.
        var timeMember: Int?
        var isAction = false
        var hasAction = false
        /// Which member holds the state, by its place among the members.
        var stateMember: Int?
        var isFromApp = true
        var namesEffect = false

        /// Reads `member`, the `index`th of `line`'s; false when it is not plainly right for an action line.
        mutating func read(_ member: JSONLineScanner.Member, at index: Int, in line: UnsafeBufferPointer<UInt8>) -> Bool {
            switch Key(line, member.key) {
            case .kind:
                guard SessionLineValidator.packed(line, member.value) == SessionLineValidator.actionKind else { return false }
                isAction = true
            case .seq:
                guard let value = SessionLineValidator.integer(line, member.value),
                    SessionFormat.sequenceNumbers.contains(value)
                else { return false }
                sequence = value
            case .time:
                guard case .number = member.type else { return false }
                timeMember = index
            case .action:
                hasAction = true
            case .state:
                stateMember = index
            case .origin:
                switch SessionLineValidator.packed(line, member.value) {
                case SessionLineValidator.effectOrigin: isFromApp = false
                case SessionLineValidator.appOrigin: isFromApp = true
                default: return false
                }
            case .cause:
                // Read only for an effect's action, as an integer; a plain one is one.
                guard SessionLineValidator.integer(line, member.value) != nil else { return false }
            case .name:
                guard case .string = member.type else { return false }
            case .effect:
                guard case .string = member.type else { return false }
                namesEffect = true
            case .patch:
                return false
            case .index, .result, .outcome, .calls, .sent, .other:
                break
            }
            return true
        }
    }

    /// Accepts an action line whose fields are plainly right; `nil` sends it to the full check. Notes in `memory`
    /// what it read, or that it read nothing.
    ///
    /// When the scan found the line to be the memory's last one with only some values replaced, and the fast path
    /// took that one, only the members whose values were replaced are read: the others are the same bytes.
    mutating func fastAction(_ line: UnsafeBufferPointer<UInt8>, memory: StreamMemory?) -> Checked? {
        var fields: ActionFields
        let members = scanner.members
        if let replaced = scanner.replacedMembers, let last = memory?.lastAction {
            fields = last
            var remaining = replaced
            while remaining != 0 {
                let index = remaining.trailingZeroBitCount
                remaining &= remaining &- 1
                guard fields.read(members[index], at: index, in: line) else { return forgetting(memory) }
            }
        } else {
            fields = ActionFields()
            for index in members.indices {
                guard fields.read(members[index], at: index, in: line) else { return forgetting(memory) }
            }
        }
        guard fields.isAction, fields.hasAction, let stateMember = fields.stateMember, let sequence = fields.sequence,
            let timeMember = fields.timeMember
        else { return forgetting(memory) }
        memory?.lastAction = fields
        return .action(
            Action(
                sequence: sequence, time: .text(UnsafeBufferPointer(rebasing: line[members[timeMember].value])),
                snapshot: .stateBytes(UnsafeBufferPointer(rebasing: line[members[stateMember].value])),
                isFromApp: fields.isFromApp, namesEffect: fields.namesEffect))
    }

    /// Notes that the fast path did not take the line `memory` now holds; returns `nil`.
    private func forgetting(_ memory: StreamMemory?) -> Checked? {
        memory?.lastAction = nil
        return nil
    }
}
