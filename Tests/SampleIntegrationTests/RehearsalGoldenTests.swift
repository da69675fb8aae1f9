import Foundation
import RehearsalFeatures
import SampleReplayStores
import StoreKitCore
import StoreKitReplay
import StoreKitTesting
import Testing

/// The rehearsal planner's goldens: they replay, they hold what real apps of TCA or Fluxor size have, and they catch
/// a regression deep inside the rehearsal feature at the right step.
@Suite struct RehearsalGoldenTests {
    @Test(arguments: [RehearsalFixtures.journey, RehearsalFixtures.week])
    func theGoldenReplaysAsAMatch(_ path: String) throws {
        let report = try assertReplayMatches(session: path, stores: SampleStores.all, record: .never)
        #expect(report.header.storeID == RehearsalApp.storeID)
        #expect(report.stepsMatched == report.actionCount)
        #expect(report.end?.reason == .finished)
    }

    @Test func theJourneyIsAThreeHundredStepSessionStoredAsPatches() throws {
        let session = try Session(contentsOf: RehearsalFixtures.journey)
        #expect(session.actions.count == 320)
        #expect(session.actions.filter { $0.patch != nil }.count > 250)
        let week = try Session(contentsOf: RehearsalFixtures.week)
        #expect(week.actions.count == 90)
        #expect(week.actions.allSatisfy { $0.patch == nil })
    }

    @Test func everyActionCaseOfTheAppOccursInTheJourney() throws {
        // Given the journey's actions, read as the enum cases they are made of
        let session = try Session(contentsOf: RehearsalFixtures.journey)
        let casePaths = session.actions.map { RehearsalFixtures.cases(of: $0.action) }

        // Then all 47 cases occur, nested up to six enums deep (root, stack, screen, detail, destination, form)
        #expect(RehearsalFixtures.everyActionCase.count == 47)
        #expect(Set(casePaths.joined()) == RehearsalFixtures.everyActionCase)
        #expect(casePaths.map(\.count).max() == 6)
        #expect(
            casePaths.contains([
                "RehearsalApp.Action.path", "StackAction.element", "Path.Action.detail",
                "SetlistDetail.Action.destination", "Destination.Action.edit", "SetlistForm.Action.shuffleSongs",
            ]))
    }

    @Test func theJourneyPushesAndPopsScreensByIdAndReordersInsertsAndRemovesElements() throws {
        let states = try RehearsalFixtures.states(of: Session(contentsOf: RehearsalFixtures.journey))
        // The stack grows to two screens (a detail and a rehearsal on it) and is popped back to the root, and no id
        // is ever given twice
        #expect(states.map(\.path.entries.count).max() == 2)
        #expect(states.last?.path.entries.isEmpty == true)
        var seenIDs: [StackElementID] = []
        for state in states {
            for id in state.path.ids where !seenIDs.contains(id) { seenIDs.append(id) }
        }
        #expect(seenIDs == seenIDs.sorted())
        #expect(seenIDs.count > 10)
        // Setlists and songs are inserted, removed and moved by id
        let setlistOrders = states.map { $0.setlists.setlists.map(\.id) }
        #expect(zip(setlistOrders, setlistOrders.dropFirst()).contains { Set($0) == Set($1) && $0 != $1 })
        #expect(zip(setlistOrders, setlistOrders.dropFirst()).contains { $1.count < $0.count })
        let draftSongs = states.map { $0.setlists.addForm?.setlist.songs.map(\.id) ?? [] }
        #expect(zip(draftSongs, draftSongs.dropFirst()).contains { Set($0) == Set($1) && $0 != $1 })
        #expect(zip(draftSongs, draftSongs.dropFirst()).contains { $1.count < $0.count && !$1.isEmpty })
    }

    @Test func theJourneyHoldsDatesDurationsOptionalsPayloadEnumsAndAUUIDKeyedDictionary() throws {
        let session = try Session(contentsOf: RehearsalFixtures.journey)
        let states = try RehearsalFixtures.states(of: session)
        let saved = states.last?.setlists.setlists.flatMap(\.rehearsals) ?? []
        // Saved rehearsals carry a start date, a total duration and per-song times keyed by song id
        #expect(!saved.isEmpty)
        #expect(saved.allSatisfy { $0.total > .zero && !$0.songTimes.isEmpty })
        #expect(saved.contains { $0.rating != nil } && states.contains { $0.setlists.setlists.contains { $0.gigDate == nil } })
        // A keyed dictionary is written as alternating keys and values; an unlabeled payload as `_0`
        let rehearsing = try #require(states.firstIndex { RehearsalFixtures.topRehearsal($0)?.songTimes.count == 2 })
        let entries = try #require(session.actions[rehearsing].state["path"]?["entries"]?.arrayValue)
        let element = try #require(entries.last?["element"]?["rehearsal"]?["_0"])
        let songTimes = try #require(element["songTimes"]?.arrayValue)
        #expect(songTimes.count == 4)
        #expect(songTimes[0].stringValue.flatMap(UUID.init(uuidString:)) != nil)
        #expect(songTimes[1].arrayValue?.count == 2)
        // Phases with payloads appear, from count-in to finished
        let phases = states.compactMap { RehearsalFixtures.topRehearsal($0)?.phase }
        #expect(phases.contains(.countingIn(beatsLeft: Rehearsal.countInBeats)))
        #expect(phases.contains(.paused) && phases.contains(.finished))
    }

    @Test func everyTickComesFromTheTimerStartedForItsScreen() throws {
        let session = try Session(contentsOf: RehearsalFixtures.journey)
        let bySequence = Dictionary(uniqueKeysWithValues: session.actions.map { ($0.sequence, $0) })
        let ticks = session.actions.filter { RehearsalFixtures.cases(of: $0.action).last == "Rehearsal.Action.timerTick" }
        #expect(ticks.count == 104)
        for tick in ticks {
            guard case .effect(let cause?) = tick.origin, let starter = bySequence[cause] else {
                Issue.record("step \(tick.sequence): a tick not caused by a recorded action")
                continue
            }
            #expect(["Rehearsal.Action.startTapped", "Rehearsal.Action.resumeTapped"].contains(RehearsalFixtures.cases(of: starter.action).last))
            #expect(starter.action["path"]?["_0"]?["element"]?["id"] == tick.action["path"]?["_0"]?["element"]?["id"])
        }
    }

    @Test func aDoubleTappedResumeLeavesOneTimerTheSecondOne() throws {
        // Given the journey's two resumes in a row
        let actions = try Session(contentsOf: RehearsalFixtures.journey).actions
        let isResume = { (event: ActionEvent) in RehearsalFixtures.cases(of: event.action).last == "Rehearsal.Action.resumeTapped" }
        let second = try #require(actions.indices.dropFirst().first { isResume(actions[$0]) && isResume(actions[$0 - 1]) })

        // Then every tick until the next user action is caused by the second: the first timer was cancelled in flight
        let ticks = actions[(second + 1)...].prefix { $0.origin != .app }
        #expect(ticks.count > 5)
        #expect(ticks.allSatisfy { $0.origin == .effect(cause: actions[second].sequence) })
    }

    @Test func aRegressionDeepInTheRehearsalDivergesAtTheFirstSongChangeOfTheTimer() throws {
        // Given the first tick at which the recorded rehearsal moved on to its next song
        let session = try Session(contentsOf: RehearsalFixtures.journey)
        let states = try RehearsalFixtures.states(of: session)
        let firstAdvance = try #require(
            session.actions.indices.dropFirst().first { index in
                RehearsalFixtures.cases(of: session.actions[index].action).last == "Rehearsal.Action.timerTick"
                    && RehearsalFixtures.topRehearsal(states[index])?.songIndex
                        != RehearsalFixtures.topRehearsal(states[index - 1])?.songIndex
            })

        // When it is replayed by the host's regression, whose tick no longer moves on when a song's time is up
        let report = ReplayEngine(stores: SampleStores.withRehearsalAdvanceRegression).replay(session)

        // Then it diverges at that step, in the rehearsal's song index and elapsed time, and nowhere else
        guard case .diverged(let divergence) = report.verdict else {
            Issue.record("expected a divergence, got \(report.verdict.name)")
            return
        }
        #expect(divergence.step == session.actions[firstAdvance].sequence)
        #expect(divergence.step == 68)
        let keys = divergence.diff.changes.map { change in
            change.path.components.compactMap { component -> String? in
                if case .key(let key) = component { return key }
                return nil
            }
        }
        #expect(keys.allSatisfy { $0.contains("rehearsal") })
        #expect(Set(keys.compactMap(\.last)) == ["songIndex", "elapsedInSong"])
    }
}
