import InputNumber from '@arco-design/web-react/es/InputNumber';
import Menu from '@arco-design/web-react/es/Menu';
import Progress from '@arco-design/web-react/es/Progress';
import Select from '@arco-design/web-react/es/Select';
import Tabs from '@arco-design/web-react/es/Tabs';
import Tree from '@arco-design/web-react/es/Tree';
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installAriaRepairs } from './arco-aria';

// Arco's own markup, rendered for real, before and after the repairs.
let stop: () => void = () => undefined;

beforeEach(() => {
  stop = installAriaRepairs(document.body);
});

afterEach(() => {
  stop();
});

describe('ARIA repairs of Arco components', () => {
  it('makes an inline sub-menu header a menu item and its list a group', async () => {
    render(
      <Menu defaultOpenKeys={['ops']}>
        <Menu.Item key="a">A</Menu.Item>
        <Menu.SubMenu key="ops" title="Operations">
          <Menu.Item key="b">B</Menu.Item>
        </Menu.SubMenu>
      </Menu>,
    );
    const header = document.querySelector('.arco-menu-inline-header')!;
    await waitFor(() => expect(header).toHaveAttribute('role', 'menuitem'));
    expect(header).toHaveAttribute('aria-expanded', 'true');
    expect(document.querySelector('.arco-menu-inline-content')).toHaveAttribute('role', 'group');
    expect(screen.getByRole('menuitem', { name: 'Operations' })).toBe(header);
  });

  it('makes a collapsed menu\'s pop-up sub-menu header a menu item', async () => {
    render(
      <Menu collapse>
        <Menu.SubMenu key="ops" title="Operations">
          <Menu.Item key="b">B</Menu.Item>
        </Menu.SubMenu>
      </Menu>,
    );
    const header = document.querySelector('.arco-menu-pop-header')!;
    await waitFor(() => expect(header).toHaveAttribute('role', 'menuitem'));
    expect(header).toHaveAttribute('aria-expanded', 'false');
  });

  it('gives a progress bar and ring the name given to the component', async () => {
    render(
      <>
        <Progress percent={40} aria-label="Plan completion" />
        <Progress type="circle" percent={70} aria-label="Online ratio" />
      </>,
    );
    await waitFor(() => expect(screen.getByRole('progressbar', { name: 'Plan completion' })).toBeInTheDocument());
    expect(screen.getByRole('progressbar', { name: 'Online ratio' })).toHaveAttribute('aria-valuenow', '70');
    for (const outer of document.querySelectorAll('.arco-progress')) {
      expect(outer).not.toHaveAttribute('aria-label');
    }
  });

  it('names a progress bar nobody named by the figure it shows', async () => {
    render(<Progress percent={25} />);
    await waitFor(() => expect(screen.getByRole('progressbar', { name: '25%' })).toBeInTheDocument());
  });

  it('takes a closed select\'s hidden search input out of the tab order', async () => {
    render(
      <Select showSearch defaultValue="1" aria-label="Station">
        <Select.Option value="1">One</Select.Option>
      </Select>,
    );
    const input = document.querySelector('.arco-select-view-input')!;
    expect(input).toHaveAttribute('aria-hidden', 'true');
    await waitFor(() => expect(input).toHaveAttribute('tabindex', '-1'));
  });

  it('puts tabs in a tablist', async () => {
    render(
      <Tabs>
        <Tabs.TabPane key="1" title="One">1</Tabs.TabPane>
        <Tabs.TabPane key="2" title="Two">2</Tabs.TabPane>
      </Tabs>,
    );
    await waitFor(() => expect(screen.getByRole('tablist')).toContainElement(screen.getByRole('tab', { name: 'One' })));
  });

  it('counts tree levels from 1, once', async () => {
    render(
      <Tree
        defaultExpandedKeys={['root']}
        treeData={[{ key: 'root', title: 'Root', children: [{ key: 'leaf', title: 'Leaf' }] }]}
      />,
    );
    await waitFor(() => expect(screen.getAllByRole('treeitem')[0]).toHaveAttribute('aria-level', '1'));
    const [root, leaf] = screen.getAllByRole('treeitem');
    expect(leaf).toHaveAttribute('aria-level', '2');
    // Repairing again does not raise them further.
    root!.setAttribute('data-touch', '1');
    await new Promise((wait) => setTimeout(wait, 20));
    expect(root).toHaveAttribute('aria-level', '1');
  });

  it('drops infinite bounds of a number input and keeps finite ones', async () => {
    render(
      <>
        <InputNumber aria-label="Unbounded" />
        <InputNumber aria-label="Bounded" min={0} max={100} />
      </>,
    );
    const [unbounded, bounded] = screen.getAllByRole('spinbutton');
    await waitFor(() => expect(unbounded).not.toHaveAttribute('aria-valuemax'));
    expect(unbounded).not.toHaveAttribute('aria-valuemin');
    expect(bounded).toHaveAttribute('aria-valuemin', '0');
    expect(bounded).toHaveAttribute('aria-valuemax', '100');
  });
});
