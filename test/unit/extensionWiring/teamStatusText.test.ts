import { strict as assert } from 'node:assert';
import type { TeamStatus } from '../../../src/core/team/teamSync';
import { describeTeam, memoryIdOf, teamBarText } from '../../../src/extension/team/teamStatusText';

const base: TeamStatus = { state: 'connected', server: 'alice@db:5432/team', waiting: 0, reason: undefined, lastSyncAt: undefined, sharedProjects: ['web'], cursor: 7, replica: 'full' };

describe('team status texts', () => {
  it('hides the status bar item and says "not connected" when team memory is off', () => {
    const off: TeamStatus = { ...base, state: 'off', server: undefined };
    assert.equal(teamBarText(off), undefined);
    assert.equal(teamBarText(undefined), undefined);
    assert.equal(describeTeam(off), 'Team memory: not connected.');
  });

  it('says when the store is a partial replica (recall asks the server)', () => {
    assert.equal(describeTeam({ ...base, replica: 'partial' }), 'Team memory: connected to alice@db:5432/team (web); 0 waiting to push. Partial replica: recall also asks the team server.');
  });

  it('names the server and shared projects when connected, the waiting count and reason when offline or failing', () => {
    assert.equal(teamBarText(base), '$(organization) Team');
    assert.equal(describeTeam(base), 'Team memory: connected to alice@db:5432/team (web); 0 waiting to push.');
    const offline: TeamStatus = { ...base, state: 'offline', waiting: 12, reason: 'The team server db:5432 cannot be reached (ECONNREFUSED); changes wait in the local outbox.' };
    assert.equal(teamBarText(offline), '$(cloud-offline) Team: 12 waiting');
    assert.match(describeTeam(offline), /^Team memory: offline, 12 waiting to push \(The team server db:5432 cannot be reached/);
    const error: TeamStatus = { ...base, state: 'error', waiting: 3, reason: 'refused the login of role "alice"', sharedProjects: [] };
    assert.equal(teamBarText(error), '$(error) Team');
    assert.equal(describeTeam(error), 'Team memory: error — refused the login of role "alice" (3 waiting).');
    assert.match(describeTeam({ ...base, sharedProjects: [] }), /no project shared yet/);
  });

  it('takes a memory id from a string or a tree/panel item', () => {
    assert.equal(memoryIdOf('m-1'), 'm-1');
    assert.equal(memoryIdOf({ memoryId: 'm-2', id: 'node-9' }), 'm-2');
    assert.equal(memoryIdOf({ id: 'm-3' }), 'm-3');
    assert.equal(memoryIdOf({ id: 3 }), undefined);
    assert.equal(memoryIdOf(undefined), undefined);
  });
});
