"""The Gauntlet rules this plugin checks: (id, catalogue severity, rulebook section, summary).

Severities follow rules-catalogue.md: "E" error, "W" warning, "E*" error unless a card-effect
declaration excuses the timing window (then a warning).
"""
from __future__ import annotations

from collections.abc import Iterable

from assist.api import Flag
from assist.rule_table import RuleTable

from .facts import Facts
from .wording import worded

RULES = RuleTable([
    # A.2.1 deck construction and setup
    ("GAU-DECK-MIN-SIZE", "E", "§2 Building a Deck", "The Playable Deck has at least 30 cards."),
    ("GAU-DECK-MAX-VALUE", "E", "§2 Building a Deck", "Total deckbuilding value is at most 60."),
    ("GAU-DECK-FACTION", "E", "§2 Building a Deck", "Only Neutral and own-faction cards."),
    ("GAU-DECK-UNIQUE", "E", "§2 Building a Deck", "A Unique card at most once."),
    ("GAU-DECK-LEADER", "E", "§2 Building a Deck", "Exactly one Leader, of the chosen faction."),
    ("GAU-TERR-THREE-DIFFERENT", "E", "§2 Building a Deck",
                                 "Exactly three Territories, three different titles."),
    ("GAU-TERR-ONE-ARENA", "E", "§2 Building a Deck", "At most one Arena Territory."),
    ("GAU-TERR-NOT-IN-DECK", "E", "§2 Building a Deck",
                             "Territory Cards never enter the deck, hand, piles or Asset Bank."),
    ("GAU-SUPP-NOT-CARDS", "E*", "§2 Building a Deck",
                           "Supplemental components are never drawn, played, discarded, "
                           "banked or put in the Graveyard."),
    ("GAU-SUPP-PRESENT", "W", "§2 Building a Deck", "The faction's components are present."),
    ("GAU-SETUP-DRAWPILE", "E", "§3 Setup", "The Draw Pile is the shuffled deck, face down; "
                           "Discard Pile, Graveyard and Asset Bank start empty."),
    ("GAU-SETUP-TERR-SECRET", "W", "§3 Setup",
                              "Territories are revealed only once all six are placed."),
    ("GAU-SETUP-TERR-FACING", "E", "§3 Setup",
                              "Each player's three Territories at their end, facing them."),
    ("GAU-TERR-STAY-FACEUP", "W", "§3 Setup", "Territories stay face up after the reveal."),
    ("GAU-LEADER-FACEUP", "E", "§2 Building a Deck",
                          "The Leader Card stays face up in its Leader area."),
    ("GAU-SETUP-TOKENS", "E", "§3 Setup", "Each Player Token starts before its own end."),
    ("GAU-SETUP-HAND-3", "E", "§3 Setup", "Opening hand of exactly three cards."),
    ("GAU-SETUP-FIRST-PLAYER", "E", "§3 Setup",
                               "The higher first-player roll goes first; ties are rerolled."),
    ("GAU-SETUP-FACTION-START", "E", "§11-§16 Components and Setup",
                                "Faction trackers and components start at their set-up values."),
    ("GAU-SETUP-ORDER", "W", "§3 Setup", "Setup steps in rulebook order."),
    # A.2.2 turn structure
    ("GAU-TURN-ALTERNATE", "E", "§4 Turn Structure", "Turns alternate between the players."),
    ("GAU-STEP-ORDER", "W", "§4 Turn Structure", "Steps in order, none repeated."),
    ("GAU-CAPTURE-MANDATORY", "E", "§4.1 Capture",
                              "An occupied, uncontrolled Territory is captured in Capture."),
    ("GAU-CAPTURE-REQUIRES-OCCUPATION", "E*", "§7 Territory Control",
                                        "A Territory turns only to face the player occupying it."),
    ("GAU-CONTROL-CHANGE-TIMING", "E*", "§7 Territory Control",
                                  "Control changes in the Capture step (or by Fortify, Hostile "
                                  "Takeover or an effect)."),
    ("GAU-TERR-TWO-FACINGS", "E", "§7 Territory Control",
                             "A Territory faces exactly one of the two players."),
    ("GAU-DRAW-ONE", "E*", "§4.2 Draw", "Draw exactly one card in the Draw step."),
    ("GAU-RESHUFFLE-TRIGGER", "E*", "§4.2 Draw",
                              "The whole Discard Pile is reshuffled only when the Draw Pile "
                              "cannot complete a draw."),
    ("GAU-GRAVEYARD-NO-RESHUFFLE", "E*", "§9 Game Zones",
                                   "Graveyard cards never go back into the Draw Pile."),
    ("GAU-ACTION-ONE-PER-TURN", "E*", "§4.5 Action Opportunity",
                                "One Action Opportunity use per turn."),
    ("GAU-ACTION-TIMING", "E*", "§10 Actions",
                          "Action effects only by the active player, in an Action Opportunity."),
    ("GAU-AO-AFTER-ONLY-IF-UNUSED", "E*", "§4.5 Action Opportunity",
                                    "No AO-after action once the AO was used before movement."),
    ("GAU-HAND-LIMIT", "E", "§4.6 Cleanup", "The active player ends Cleanup with at most 3 cards."),
    ("GAU-HAND-LIMIT-DISCARD", "W", "§4.6 Cleanup",
                               "Cleanup discards go to the Discard Pile and stop at 3."),
    # A.2.3 movement
    ("GAU-MOVE-ONE-CHOICE", "E*", "§5 Movement", "Advance, hold or withdraw one position."),
    ("GAU-MOVE-STEPWISE", "E*", "§5 Movement", "Movement one position at a time."),
    ("GAU-MOVE-ONLY-IN-STEP", "E*", "§4.4 Movement",
                              "Tokens move in the Movement step (or by retreat, withdrawal, "
                              "Rout, Repel, Relentless Pursuit)."),
    ("GAU-NO-PASSING", "E", "§5 Movement", "Player Tokens never pass one another."),
    ("GAU-NO-SHARED-POSITION", "E", "§6 Battles",
                               "Tokens share a position only during a battle."),
    ("GAU-BATTLE-ON-ENTRY", "E", "§6 Battles",
                            "Entering the opponent's position begins a battle; the entering "
                            "player attacks."),
    ("GAU-ATTACKER-ENTERS", "W", "§5 Movement",
                            "The attacker's token is in the contested position."),
    ("GAU-WITHDRAW-LIMIT", "E*", "§5 Movement",
                           "No voluntary withdrawal beyond your end of the Gauntlet."),
    ("GAU-POSITION-BOUNDS", "E", "§5 Movement", "Tokens stand only on the 8 positions."),
    ("GAU-BATTLE-WITHDRAW-DEST", "E*", "§5 Movement",
                                 "A withdrawing attacker returns where it entered from; a "
                                 "withdrawing defender moves one toward its own end."),
    # A.2.4 battles
    ("GAU-COMMIT-MAX-ONE", "E*", "§6.2 Commit Cards from Hand",
                           "At most one card committed, from hand."),
    ("GAU-COMMIT-ORDER", "W", "§6.2 Commit Cards from Hand", "The attacker commits first."),
    ("GAU-BATTLEHAND-DRAW", "E*", "§6.3 Form Battle Hands",
                            "A Battle Hand is three cards from your own Draw Pile."),
    ("GAU-BATTLEHAND-ORDER", "W", "§6.3 Form Battle Hands",
                             "The attacker forms its Battle Hand first."),
    ("GAU-BATTLEHAND-CHOOSE-ONE", "E*", "§6.3 Form Battle Hands",
                                  "At most one card chosen, from the Battle Hand."),
    ("GAU-BATTLEHAND-SEPARATE", "E*", "§6.3 Form Battle Hands",
                                "Battle Hand cards never enter the hand."),
    ("GAU-NO-LATE-COMMIT", "E*", "§6.2 Commit Cards from Hand",
                           "No hand commitment once Battle Hands are drawn."),
    ("GAU-REVEAL-BEFORE-DICE", "W", "§6.4 Reveal Cards",
                               "Committed and chosen cards are revealed before dice."),
    ("GAU-DICE-COUNT", "W", "§6.6 Roll Battle Dice",
                       "One die plus one per net advantage or disadvantage."),
    ("GAU-DICE-KEEP", "E", "§6.6 Roll Battle Dice",
                      "Keep the highest die with advantage, the lowest with disadvantage."),
    ("GAU-PREDICE-SPENDS", "E", "§6.6 Roll Battle Dice",
                           "Rally, Entrench, Leverage, Subsidize, Transmutation before dice."),
    ("GAU-WINNER", "E*", "§6.7 Determine the Winner",
                   "The higher total wins; ties go to a defender with Defender's Advantage."),
    ("GAU-TIE-REROLL", "E*", "§6.7 Determine the Winner",
                       "An unbroken tie is rerolled."),
    ("GAU-RESULT-RETREAT", "E*", "§6.8 Resolve the Result",
                           "The loser retreats one position; a winning attacker occupies."),
    ("GAU-CLEANUP-DEST", "E*", "§6.9 Battle Cleanup",
                         "Hand commitments to the Graveyard; Battle Hand cards to the Discard "
                         "Pile."),
    ("GAU-CLEANUP-COMPLETE", "E", "§6.9 Battle Cleanup",
                             "No card stays in a battle slot or Battle Hand after the battle."),
    ("GAU-ATTACKER-FIRST", "W", "Rules Conventions",
                           "In one timing window the attacker's effects come first."),
    ("GAU-ONE-BATTLE-AT-A-TIME", "E*", "§5 Movement", "One battle at a time."),
    # A.2.5 running the Gauntlet
    ("GAU-FORCED-BEYOND", "E*", "§8 Running the Gauntlet",
                          "Losing on your final Territory forces you beyond; the winner stays "
                          "on the final Territory."),
    ("GAU-LASTSTAND-PREREQ", "W", "§8 Running the Gauntlet",
                             "A Last Stand needs the opponent forced beyond and their final "
                             "Territory captured."),
    ("GAU-LASTSTAND-BONUS", "E", "§8 Last Stand", "The Last Stand defender adds +1."),
    ("GAU-LASTSTAND-WIN", "E", "§8 Last Stand", "Winning a Last Stand wins the game."),
    ("GAU-LASTSTAND-LOSS", "E", "§8 Last Stand",
                           "A beaten Last Stand attacker retreats to the final Territory."),
    # A.2.6 zones, Assets, Overlays
    ("GAU-ZONE-VISIBILITY", "E", "§9 Game Zones",
                            "Draw Pile face down; Discard Pile and Graveyard face up."),
    ("GAU-ASSET-LIMIT", "E", "§10 Assets", "Assets at most the Territories you control."),
    ("GAU-ASSET-LIMIT-IMMEDIATE", "E", "§10 Assets", "Excess Assets are discarded at once."),
    ("GAU-ASSET-ENTRY", "W", "§10 Assets", "Cards are banked through an Action play."),
    ("GAU-ASSET-DISCARD-USES-AO", "E*", "§10 Assets",
                                  "A voluntary Asset discard uses the Action Opportunity."),
    ("GAU-OVERLAY-ATTACHED", "W", "§10 Overlays", "Overlays attach to Territories, not the bank."),
    ("GAU-OVERLAY-FACING", "E", "§10 Overlays", "Overlays face the way their Territory faces."),
    ("GAU-OVERLAY-OWNERSHIP", "E*", "§10 Overlays",
                              "Control changes do not change Overlay owners or order."),
    ("GAU-OVERLAY-DEST", "W", "§10 Overlays", "A removed Overlay goes to its owner's Discard."),
    # A.2.7 Military
    ("GAU-MIL-COMMAND-RANGE", "E", "§11 Military", "Command 0 to 2."),
    ("GAU-MIL-COMMAND-GAIN", "W", "§11 Military",
                             "+1 Command for the first battle won each turn only."),
    ("GAU-MIL-ORDERS-OWN-LEADER", "E", "§11 Military", "Only your Leader's Orders."),
    ("GAU-MIL-ONWARD", "E*", "§11 General", "Each extra position needs an Onward."),
    ("GAU-MIL-RALLY", "E", "§11 General", "Rally: battles the General initiated."),
    ("GAU-MIL-ROUT", "E*", "§11 General", "Rout: after winning a battle the General began."),
    ("GAU-MIL-ENTRENCH", "E", "§11 Commandant",
                         "Entrench: battles the Commandant did not initiate."),
    ("GAU-MIL-REPEL", "E*", "§11 Commandant",
                      "Repel: after winning a battle the Commandant did not initiate."),
    ("GAU-MIL-FORTIFY", "E*", "§11 Commandant",
                        "Fortify: after a win while occupying an enemy Territory."),
    # A.2.8 Diplomats
    ("GAU-DIP-INFLUENCE-RANGE", "E", "§12 Diplomats", "Influence (with stake) 0 to 10."),
    ("GAU-DIP-TERMS-TIMING", "E", "§12 Offering Terms",
                             "Terms: in the Diplomat's battle, before commitments, once."),
    ("GAU-DIP-STAKE", "E", "§12 Offering Terms", "Stake the Proposal's listed Influence."),
    ("GAU-DIP-STAKE-LOCKED", "E", "§12 Influence", "Staked Influence is locked until resolved."),
    ("GAU-DIP-ACCEPTED", "E", "§12 Accepted Terms",
                         "Accepted Terms: no battle, stake returned, Proposal ratified."),
    ("GAU-DIP-LEVERAGE", "E", "§12 Leverage", "Leverage only after refused Terms."),
    ("GAU-DIP-NO-UNRATIFY", "W", "§12 Accepted Terms", "Treaty Articles are never unratified."),
    ("GAU-DIP-PEACE-TREATY", "E", "§12 Peace Treaty",
                             "Five ratified Proposals after your Capture step win."),
    ("GAU-DIP-CORDIALITY", "E*", "§12 Ambassador",
                           "Cordiality: Ambassador, once per turn, after accepted Terms."),
    ("GAU-DIP-POLITICAL-CAPITAL", "E*", "§12 Senator",
                                  "Political Capital: Senator, once per turn, after losing a "
                                  "refused-Terms battle."),
    # A.2.9 Financiers
    ("GAU-FIN-CAPITAL-LIMIT", "E", "§13 Capital and Treasury",
                              "Capital cut to the limit at the end of every turn."),
    ("GAU-FIN-CAPITAL-NONNEG", "E", "§13 Capital and Treasury", "Capital never below 0."),
    ("GAU-FIN-TREASURY", "E", "§13 Capital and Treasury",
                         "Treasury: one card from hand, in AO-after, instead of an Action."),
    ("GAU-FIN-TREASURY-STICKY", "W", "§13 Capital and Treasury",
                                "Cards leave the Treasury only as collateral."),
    ("GAU-FIN-DEED-TIMING", "E", "§13 Deeds", "One Deed purchase, in AO-after."),
    ("GAU-FIN-DEED-COST", "E", "§13 Deeds", "Deed cost formula."),
    ("GAU-FIN-DEED-INTEGRITY", "E", "§13 Deeds",
                               "Deeds stay in the supply or a Financier's Deeds."),
    ("GAU-FIN-INCOME", "E", "§13 Income", "Income = Deeds owned, after Capture."),
    ("GAU-FIN-CONTROLLING-INTEREST", "E", "§13 Income and Controlling Interest",
                                     "Owning every Deed wins."),
    ("GAU-FIN-SUBSIDIZE", "E", "§13 Subsidize", "+n costs n(n+1)/2 Capital, before dice."),
    ("GAU-FIN-LINE-OF-CREDIT", "E", "§13 Banker", "Line of Credit: Banker, first purchase."),
    ("GAU-FIN-HOSTILE-TAKEOVER", "E", "§13 Executive",
                                 "Hostile Takeover: Executive, after winning into an enemy "
                                 "Territory."),
    # A.2.10 Intelligence
    ("GAU-INT-NONNEG", "E", "§14 Intelligence", "Intel and Operation Progress never below 0."),
    ("GAU-INT-MISSION-ELIGIBLE", "E", "§14 Missions",
                                 "Only Intelligence cards with a Mission requirement."),
    ("GAU-INT-MISSION-START", "E", "§14 Missions",
                              "Missions start in AO-after, from hand; one at a time."),
    ("GAU-INT-NOT-SAME-TURN", "E", "§14 Missions", "No completion on the turn it starts."),
    ("GAU-INT-FAIL-DEST", "W", "§14 Missions", "Failed Missions go to the Graveyard."),
    ("GAU-INT-SURVEILLANCE", "E", "§14 Surveillance", "Surveillance: once per battle, 1 Intel."),
    ("GAU-INT-INTERFERENCE", "E", "§14 Interference",
                             "Interference right after Surveillance, 2 more Intel."),
    ("GAU-INT-SPECOP-START", "E", "§14 Special Operation",
                             "Special Operation: AO-after, Progress above the opponent's "
                             "Territories, no Mission."),
    ("GAU-INT-SPECOP-FAIL", "E", "§14 Special Operation",
                            "It fails once Progress no longer exceeds the opponent's "
                            "Territories."),
    ("GAU-INT-FIELDCRAFT", "E*", "§14 Ranger", "Fieldcraft: Ranger, once per turn, 1 Intel."),
    ("GAU-INT-MISSION-CONTROL", "E", "§14 Spymaster",
                                "Mission Control: Spymaster, once per turn, after completing."),
    # A.2.11 Mystics
    ("GAU-MYS-BEGIN-TIMING", "E", "§15 Rites", "Rites begin in AO-after, instead of an Action."),
    ("GAU-MYS-ONE-BEGUN", "E", "§15 Rites", "One begun Rite at a time."),
    ("GAU-MYS-NOT-SAME-TURN", "E", "§15 Rites", "No completion on the turn it begins."),
    ("GAU-MYS-ONE-COMPLETE-PER-TURN", "E", "§15 Rites", "One Rite completed per turn."),
    ("GAU-MYS-COMPLETE-STATE", "W", "§15 Rites", "Only a begun Rite completes; never back."),
    ("GAU-MYS-UNLOCKS", "E", "§15 Rites", "Invocation needs 1 Rite; Transmutation 2."),
    ("GAU-MYS-RITUAL-WIN", "E", "§15 Rites", "Three completed Rites win."),
    ("GAU-MYS-LOSS-INTERRUPTS", "E*", "§15 Rites",
                                "A lost battle interrupts Rite of Echoes or Blood."),
    ("GAU-MYS-BLOOD-COMPLETE", "E", "§15 Rite of Blood",
                               "Blood completes by winning without hand or Battle Hand cards."),
    ("GAU-MYS-CROSSING-BEGIN", "E", "§15 Rite of Crossing",
                               "Crossing begins after winning into an enemy Territory."),
    ("GAU-MYS-BOUND", "E", "§15 Bound Cards", "Bound cards go only to their owner's Graveyard."),
    ("GAU-MYS-INVOCATION", "E*", "§15 Invocation",
                           "Invocation: once per turn, one Graveyard card to the Discard Pile."),
    ("GAU-MYS-TRANSMUTATION", "E", "§15 Transmutation",
                              "Transmutation: once per turn, before dice, one hand card."),
    ("GAU-MYS-GUARDIANS", "E*", "§15 Spirit Walker",
                          "Guardians: Spirit Walker, first loss on its own turn."),
    # A.2.12 Inquisition
    ("GAU-INQ-CONVICTION-RANGE", "E", "§16 Inquisition", "Conviction 0 to 4."),
    ("GAU-INQ-CONVICTION-GAIN", "W", "§16 Conviction",
                                "One normal Conviction per turn, after a battle sends "
                                "opposing cards to the Graveyard."),
    ("GAU-INQ-CONDEMNATION", "E*", "§16 Condemnation",
                             "Opposing used Battle Hand cards go to the Graveyard."),
    ("GAU-INQ-PURGE-TIMING", "E", "§16 Purge", "Purge uses an Action Opportunity."),
    ("GAU-INQ-PURGE-TIER", "E", "§16 Purge", "Conviction spent matches the Purge tier."),
    ("GAU-INQ-FINAL-JUDGMENT", "E", "§16 Grand Inquisitor",
                               "Final Judgment: Grand Inquisitor, once per turn, after a win."),
    ("GAU-INQ-RELENTLESS", "E", "§16 Witch Hunter",
                           "Relentless Pursuit: Witch Hunter, once per turn, 2 Conviction."),
])


def add(out: list[Flag], f: Facts, rule: str, message: str, objects: Iterable[str] = (),
        at: int | None = None) -> None:
    """A flag for `rule`; `at`: the index of the op it judges, when that is an earlier op than
    the one being checked (a verdict given when its window closed). A message that names no
    player, or not a card it is about, starts with what the op did (wording.said)."""
    ops = () if at is None or at == f.h.index else (f.ctx.ref_at(at),)
    objs = tuple(o for o in objects if o)
    if at is None or at == f.h.index:
        message = worded(f, message, objs)
    out.append(RULES.flag(rule, message, excused=f.ctx.excused, objects=objs, ops=ops))
